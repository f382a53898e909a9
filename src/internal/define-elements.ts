/** Defines each tag with its element, unless the page already has that tag (the widget loaded twice). */
export function defineElements(elements: Record<string, CustomElementConstructor>): void {
  for (const [tag, element] of Object.entries(elements)) if (!customElements.get(tag)) customElements.define(tag, element);
}
