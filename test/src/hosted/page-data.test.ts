import { expect } from '@open-wc/testing';
import { readPageData } from '../../../src/hosted/page-data.js';

function page(json: string): Document {
  const doc = document.implementation.createHTMLDocument('t');
  const script = doc.createElement('script');
  script.type = 'application/json';
  script.id = 'verity-page';
  script.textContent = json;
  doc.head.append(script);
  return doc;
}

describe('readPageData', () => {
  it('reads the branding and the preview flag the server wrote', () => {
    const data = {
      branding: {
        account_name: 'Acme </script> Bank',
        logo_url: 'https://cdn.example/logo.png',
        primary_color: '#aa0000',
        background_color: null,
        text_color: '#222222',
      },
      preview: true,
    };
    // As the server writes it: `<` escaped.
    expect(readPageData(page(JSON.stringify(data).replace(/</g, '\\u003c')))).to.deep.equal(data);
  });

  it('keeps only http(s) logos and #rrggbb colours; a page is no preview unless it says so', () => {
    const data = readPageData(
      page(
        JSON.stringify({
          branding: { account_name: 'A', logo_url: 'javascript:alert(1)', primary_color: 'red', background_color: '#12345', text_color: '#abcdef' },
        }),
      ),
    );
    expect(data).to.deep.equal({
      branding: { account_name: 'A', logo_url: null, primary_color: null, background_color: null, text_color: '#abcdef' },
      preview: false,
    });
  });

  it('answers null for a missing or broken block', () => {
    expect(readPageData(document.implementation.createHTMLDocument('t'))).to.equal(null);
    expect(readPageData(page('{not json'))).to.equal(null);
    expect(readPageData(page('{"branding":{}}'))).to.equal(null);
  });

  it("reads the user's steps, keeping only step keys the widget knows", () => {
    const branding = { account_name: 'A', logo_url: null, primary_color: null, background_color: null, text_color: null };
    const data = readPageData(page(JSON.stringify({ branding, preview: false, steps: ['email', 'telepathy', 'document_id', 7] })));
    expect(data).to.deep.equal({ branding, preview: false, steps: ['email', 'document_id'] });
  });
});
