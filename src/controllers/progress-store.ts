/**
 * Keeps non-sensitive flow progress across reloads with idb-keyval: which step the user was on
 * and small step choices (e.g. the chosen document type). Never codes, answers, images or tokens.
 * Cleared on completion.
 */
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { MethodKey } from '../api/routes.js';

/** What is kept for one flow. */
export interface SavedProgress {
  /** The step the user was on. */
  method: MethodKey | 'other' | null;
  /** Small per-step choices, e.g. `{ document_type: 'passport' }`. */
  choices: Record<string, string>;
  /** When it was saved (ms since the epoch); entries older than a day are ignored. */
  savedAt: number;
}

const MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** One store per flow, keyed by the link's `key` (or `hosted` / the hand-off). */
export class ProgressStore {
  private readonly store: UseStore;

  constructor(private readonly id: string) {
    this.store = createStore('verity-widget', 'progress');
  }

  /** The saved progress, or null when none (or too old, or IndexedDB is unavailable). */
  async load(): Promise<SavedProgress | null> {
    try {
      const saved = await get<SavedProgress>(this.id, this.store);
      if (!saved || Date.now() - saved.savedAt > MAX_AGE_MS) return null;
      return saved;
    } catch {
      return null; // Private mode or blocked storage: resume is a convenience, not a need.
    }
  }

  /** Saves progress (best effort). */
  async save(progress: Omit<SavedProgress, 'savedAt'>): Promise<void> {
    try {
      await set(this.id, { ...progress, savedAt: Date.now() }, this.store);
    } catch {
      // Storage unavailable: nothing to do.
    }
  }

  /** Forgets everything for this flow. */
  async clear(): Promise<void> {
    try {
      await del(this.id, this.store);
    } catch {
      // Storage unavailable: nothing to do.
    }
  }
}

/** The store id for a magic link: its `key` parameter (not the whole signed URL). */
export function progressIdForLink(link: string): string {
  try {
    return `link:${new URL(link).searchParams.get('key') ?? 'unknown'}`;
  } catch {
    return 'link:unknown';
  }
}
