import { expect } from '@open-wc/testing';
import { readEmbedContext } from '../../../src/hosted/embed-bridge.js';

function fakeLocation(hash: string, ancestors?: string[]): Location {
  const list = ancestors
    ? Object.assign([...ancestors], { contains: (s: string) => ancestors.includes(s), item: (i: number) => ancestors[i] ?? null })
    : undefined;
  return { hash, ancestorOrigins: list } as unknown as Location;
}

describe('hosted page embed bridge', () => {
  const parent = {} as Window;
  const framed = { parent, opener: null } as unknown as Window;

  it('is off when the page is opened directly', () => {
    expect(readEmbedContext(fakeLocation(''), framed)).to.equal(null);
    const top = {} as Window & { parent: Window };
    top.parent = top;
    expect(readEmbedContext(fakeLocation('#verity-embed=modal&verity-origin=https%3A%2F%2Fshop.example'), top)).to.equal(null);
  });

  it('targets the exact opener origin in a modal', () => {
    const context = readEmbedContext(fakeLocation('#verity-embed=modal&verity-origin=https%3A%2F%2Fshop.example%2Fpath', ['https://shop.example']), framed);
    expect(context).to.deep.include({ mode: 'modal', origin: 'https://shop.example' });
    expect(context!.target).to.equal(parent);
  });

  it('refuses a claimed origin that the browser says is not the embedder', () => {
    expect(readEmbedContext(fakeLocation('#verity-embed=modal&verity-origin=https%3A%2F%2Fevil.example', ['https://shop.example']), framed)).to.equal(null);
  });

  it('refuses garbage origins and unknown modes', () => {
    expect(readEmbedContext(fakeLocation('#verity-embed=modal&verity-origin=not%20a%20url'), framed)).to.equal(null);
    expect(readEmbedContext(fakeLocation('#verity-embed=tab&verity-origin=https%3A%2F%2Fshop.example'), framed)).to.equal(null);
  });

  it('uses the opener in a popup', () => {
    const opener = {} as Window;
    const popup = { parent: null, opener } as unknown as Window;
    (popup as unknown as { parent: Window }).parent = popup;
    const context = readEmbedContext(fakeLocation('#verity-embed=popup&verity-origin=https%3A%2F%2Fshop.example'), popup);
    expect(context).to.deep.include({ mode: 'popup', origin: 'https://shop.example' });
    expect(context!.target).to.equal(opener);
  });
});
