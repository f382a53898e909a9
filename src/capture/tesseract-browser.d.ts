/** tesseract.js's browser build as an ES module (a default export holding the whole API). */
declare module 'tesseract.js/dist/tesseract.esm.min.js' {
  const Tesseract: typeof import('tesseract.js');
  export default Tesseract;
}
