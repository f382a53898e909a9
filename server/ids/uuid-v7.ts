import { randomBytes } from 'node:crypto';

let lastMs = -1;
let counter = 0;

/**
 * A UUID version 7 (RFC 9562 §5.7): 48 bits of Unix milliseconds, then a 12-bit counter that
 * grows within a millisecond of this process, then random bits. Ids made later in one process sort
 * after earlier ones, so events written in one transaction (which share their `occurred_at`) keep
 * the order they were written in when sorted by (occurred_at, id) on any database.
 */
export function uuidV7(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    // 4,096 ids in one millisecond: borrow the next millisecond rather than break the order.
    lastMs++;
    counter = 0;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
