/**
 * Messages and ways forward for camera failures, shared by the document and selfie steps.
 */
import { msg } from '@lit/localize';
import type { VerifyErrorCode } from '../events/events.js';

/** What the user can do next. */
export type CameraWayForward = 'retry' | 'upload' | 'handoff' | 'open-browser';

/** The message and the ways forward for a camera error code. */
export function cameraHelp(code: VerifyErrorCode): { message: string; actions: CameraWayForward[] } {
  switch (code) {
    case 'camera_permission_denied':
      return {
        message: msg('Camera access is blocked. Allow the camera for this site in your browser settings (the icon next to the address), then try again.', {
          id: 'camera.denied',
        }),
        actions: ['retry', 'upload', 'handoff'],
      };
    case 'camera_not_found':
      return {
        message: msg('We could not find a camera on this device.', { id: 'camera.not-found' }),
        actions: ['upload', 'handoff'],
      };
    case 'camera_in_use':
      return {
        message: msg('The camera is being used by another app or tab. Close it, then try again.', { id: 'camera.in-use' }),
        actions: ['retry', 'upload', 'handoff'],
      };
    case 'camera_insecure_context':
      return {
        message: msg('The camera only works on a secure (https) page.', { id: 'camera.insecure' }),
        actions: ['upload', 'handoff'],
      };
    default:
      return {
        message: msg("This app's built-in browser cannot use the camera. Open this page in your phone's browser (Chrome or Safari), or continue another way.", {
          id: 'camera.unsupported',
        }),
        actions: ['open-browser', 'upload', 'handoff'],
      };
  }
}

/** Copies this page's address so the user can open it in their real browser (in-app webviews). */
export async function copyPageLink(): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(window.location.href);
    return true;
  } catch {
    return false;
  }
}

/** Label of the copy button, and the status after copying. */
export function copyLinkText(copied: boolean | null): string {
  if (copied === true) return msg('Link copied. Paste it into your browser.', { id: 'camera.copied' });
  if (copied === false) return msg('Copying failed. Open the menu and choose to open in your browser.', { id: 'camera.copy-failed' });
  return msg('Copy the link for my browser', { id: 'camera.copy' });
}
