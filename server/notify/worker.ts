import type { AppContext } from '../context.js';
import { PermanentFailure } from '../queue/queue.js';
import { magicLinkFor } from '../services/users.js';
import { CODE_TTL_MINUTES, NOTIFY_QUEUE, type NotifyJob } from './jobs.js';
import { readSettings } from '../store/repos/settings-repo.js';
import { findUserById } from '../store/repos/users-repo.js';
import { codeEmail, codeSms, magicLinkEmail, magicLinkSms, pickLocale } from './messages.js';
import { openNotifyCode } from '../crypto/seal.js';
import type { Senders } from './senders.js';

/**
 * Consumes the notify queue: the magic link by e-mail or SMS (create-user `send_link`/`send_sms`)
 * and the step codes. Jobs are durable and retried by the queue; a job for a user who was deleted
 * or banned, or for a code that expired meanwhile, is dropped (nothing to send).
 */
export function registerNotifyWorker(ctx: AppContext, senders: Senders): void {
  ctx.queue.process<NotifyJob>(
    NOTIFY_QUEUE,
    async (job) => {
      const user = await findUserById(ctx.db, job.userId);
      if (!user || user.status === 'Banned') return;
      const settings = await readSettings(ctx.db);
      const account = settings.account_name;
      const to = job.kind === 'code' && job.sealedTo ? openNotifyCode(ctx.config.secret, job.sealedTo) : job.channel === 'email' ? user.email : user.phone;
      if (!to) throw new PermanentFailure(`user has no ${job.channel === 'email' ? 'e-mail' : 'phone'}`);

      if (job.kind === 'magic_link') {
        const locale = pickLocale(settings.default_locale);
        const { url } = await magicLinkFor(ctx, user);
        if (job.channel === 'email')
          await senders.email.send(to, account, { ...magicLinkEmail(locale, account, url, settings.link_lifetime_hours), userId: user.id });
        else await senders.sms.send(to, { ...magicLinkSms(locale, account, url), userId: user.id });
        return;
      }
      if (job.kind === 'code') {
        if (new Date(job.expiresAt).getTime() <= ctx.clock.now().getTime()) return;
        const code = openNotifyCode(ctx.config.secret, job.sealed);
        const locale = pickLocale(job.locale, settings.default_locale);
        if (job.channel === 'email') await senders.email.send(to, account, { ...codeEmail(locale, account, code, CODE_TTL_MINUTES), userId: user.id });
        else await senders.sms.send(to, { ...codeSms(locale, account, code, CODE_TTL_MINUTES), userId: user.id });
        return;
      }
      throw new PermanentFailure('unknown notify job');
    },
    { concurrency: 2 },
  );
}
