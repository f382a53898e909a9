/**
 * The notify queue's name and jobs. Kept apart from the worker that sends them and the services
 * that enqueue them, so that a method enqueuing a code does not import the user service (which
 * imports the method registry through template checks: an import loop).
 */

/** Notification job queue name; `registerNotifyWorker` consumes it. */
export const NOTIFY_QUEUE = 'notify';

/** Minutes a code lives (shown in the message). */
export const CODE_TTL_MINUTES = 10;

/** The magic link by e-mail or SMS (create-user `send_link` / `send_sms`, the dashboard's resend). */
export interface NotifyLinkJob {
  kind: 'magic_link';
  userId: number;
  channel: 'email' | 'sms';
}

/** A one-time code for the e-mail or SMS step; `sealed` is the code sealed with `sealNotifyCode()`. */
export interface NotifyCodeJob {
  kind: 'code';
  userId: number;
  channel: 'email' | 'sms';
  sealed: string;
  /** ISO time after which the code is useless: the job is dropped instead of sent. */
  expiresAt: string;
  /** Locale picked from the browser that asked for the code. */
  locale: string;
  /**
   * Where to send it when not to the user's own e-mail or phone (a Two-Step phone being set up),
   * sealed like the code: no number in clear in the job table.
   */
  sealedTo?: string;
}

/** Every job of {@link NOTIFY_QUEUE}. */
export type NotifyJob = NotifyLinkJob | NotifyCodeJob;
