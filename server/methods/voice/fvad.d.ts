/** The WebRTC VAD compiled to WASM (@echogarden/fvad-wasm ships no types): the emscripten module factory. */
declare module '@echogarden/fvad-wasm' {
  export interface FvadModule {
    _fvad_new(): number;
    _fvad_free(handle: number): void;
    _fvad_set_mode(handle: number, mode: number): number;
    _fvad_set_sample_rate(handle: number, rate: number): number;
    _fvad_process(handle: number, frame: number, length: number): number;
    _malloc(bytes: number): number;
    _free(pointer: number): void;
    HEAP16: Int16Array;
  }
  const factory: () => Promise<FvadModule>;
  export default factory;
}
