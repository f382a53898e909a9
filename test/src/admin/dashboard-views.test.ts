/**
 * Every view of the dashboard, in the light and the dark colour scheme, with the pages' token
 * stylesheet and a deployment's worth of data (dashboard-data.ts): each view is rendered through
 * `<admin-app>` as an operator reaches it, waited for until its data shows, and checked by axe
 * (contrast included) across its nested shadow roots.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/admin/components/admin-app.js';
import type { AdminApp } from '../../../src/admin/components/admin-app.js';
import { pageTheme } from '../fixtures/theme.js';
import { dashboardRoutes, SIGNED_OUT } from './dashboard-data.js';
import { fakeApi, until } from './fake-api.js';

/** The text a person would read: the light DOM and every shadow root below it. */
function deepText(root: Node): string {
  let text = '';
  const walk = (n: Node) => {
    if (n.nodeType === Node.TEXT_NODE) text += n.textContent;
    if (n instanceof Element && n.shadowRoot) walk(n.shadowRoot);
    for (const c of n.childNodes) walk(c);
  };
  walk(root);
  return text.replace(/\s+/g, ' ');
}

/** Every element matching `selector`, in any shadow root below `root`. */
function deepAll(root: Element | ShadowRoot | Document, selector: string): Element[] {
  const found = [...root.querySelectorAll(selector)];
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) found.push(...deepAll(el.shadowRoot, selector));
  return found;
}

/** The live-video queue's socket, answering with two waiting users as the server does. */
class QueueSocket extends EventTarget {
  static readonly OPEN = 1;
  readyState = 1;
  constructor(readonly url: string) {
    super();
    setTimeout(() => {
      const queue = {
        type: 'queue',
        ice_servers: [],
        waiting: [
          { user_id: 4, name: 'Ada Lovelace', waiting_since: '2026-05-10T12:00:00.000Z' },
          { user_id: 9, name: 'Grace Hopper', waiting_since: '2026-05-10T12:03:00.000Z' },
        ],
      };
      this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(queue) }));
    }, 10);
  }
  send(): void {}
  close(): void {
    this.readyState = 3;
  }
}

/** The views, each with its path, its heading, and text that shows only once its data has loaded. */
const VIEWS = [
  { path: '/admin', heading: 'Overview', loaded: 'Pass rate per check' },
  { path: '/admin/users', heading: 'Users', loaded: 'grace.brewster.murray.hopper@navy.example.com' },
  { path: '/admin/users/7', heading: 'Ada Lovelace', loaded: 'Not checked against a registry: none is configured' },
  { path: '/admin/reviews', heading: 'Reviews', loaded: 'A driving_licence, not among passport, id_card.' },
  { path: '/admin/live-video', heading: 'Live video', loaded: 'Grace Hopper' },
  { path: '/admin/templates', heading: 'Templates', loaded: 'Email only' },
  { path: '/admin/settings', heading: 'Settings', loaded: 'abc.apps.googleusercontent.com' },
  { path: '/admin/developers', heading: 'Developers', loaded: 'vk_live_abc123' },
  { path: '/admin/activity', heading: 'Activity and admins', loaded: 'verification.approve' },
] as const;

const TEXT = { light: 'rgb(20, 23, 31)', dark: 'rgb(231, 234, 240)' };

describe('every dashboard view, light and dark', () => {
  let undo: (() => Promise<void>) | undefined;
  const realSocket = window.WebSocket;
  beforeEach(() => {
    (window as unknown as { WebSocket: unknown }).WebSocket = QueueSocket;
  });
  afterEach(async () => {
    window.WebSocket = realSocket;
    history.replaceState(null, '', '/');
    await undo?.();
    undo = undefined;
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`${scheme}: each signed-in view shows its data and has no axe violation`, async () => {
      undo = await pageTheme(scheme);
      history.replaceState(null, '', '/admin');
      const { api } = fakeApi(dashboardRoutes());
      const app = await fixture<AdminApp>(html`<admin-app .api=${api}></admin-app>`);
      await until(() => deepText(app).includes('Sign out'), 'signed in');
      expect(getComputedStyle(app).color).to.equal(TEXT[scheme]);
      for (const view of VIEWS) {
        app.navigate(view.path);
        await until(() => deepText(app).includes(view.loaded) && !deepText(app).includes('Loading…'), `${view.path} loaded`, 8000);
        if (view.path === '/admin') {
          // Chartist loads on first use: every chart has drawn its bars before axe looks.
          await until(() => deepAll(app.shadowRoot!, 'admin-chart').every((c) => c.shadowRoot!.querySelector('.ct-bar') !== null), 'bars drawn', 8000);
          for (const d of deepAll(app.shadowRoot!, 'admin-chart details')) (d as HTMLDetailsElement).open = true;
        }
        const h1 = deepAll(app.shadowRoot!, 'main h1, h1').map((h) => h.textContent!.trim());
        expect(h1, view.path).to.include(view.heading);
        try {
          await expect(app).to.be.accessible();
        } catch (error) {
          throw new Error(`${view.path} in ${scheme} mode: ${(error as Error).message}`, { cause: error });
        }
      }
    });

    it(`${scheme}: signing in and accepting an invitation have no axe violation`, async () => {
      undo = await pageTheme(scheme);
      history.replaceState(null, '', '/admin');
      const signIn = await fixture<AdminApp>(html`<admin-app .api=${fakeApi(SIGNED_OUT).api}></admin-app>`);
      await until(() => deepAll(signIn.shadowRoot!, 'input[type=password]').length > 0, 'sign-in form');
      await expect(signIn).to.be.accessible();
      // One app on the page at a time, as in the browser (two would be two main landmarks).
      signIn.remove();
      history.replaceState(null, '', '/admin/invite#token');
      const invite = await fixture<AdminApp>(html`<admin-app .api=${fakeApi(SIGNED_OUT).api}></admin-app>`);
      await until(() => deepAll(invite.shadowRoot!, 'admin-invite').length === 1 && deepText(invite).includes('password'), 'invitation form');
      await expect(invite).to.be.accessible();
    });
  }
});
