import { methodById } from '../domain/catalogue.js';
import { SERVER_METHODS } from './registry.js';

/**
 * The verification methods as Markdown for the OpenAPI document's description: each method that
 * describes itself (`ServerMethod.docs`) with its spec id, key, what it proves and its webhook
 * `attributes`, so the document follows the registry instead of a hand-kept list.
 */
export function methodsDescription(): string {
  const described = SERVER_METHODS.filter((m) => m.docs);
  if (described.length === 0) return '';
  const sections = described.map((m) => {
    const ids = m.methodIds.map((id) => `${methodById(id)?.name ?? 'Method'} (id ${id})`).join(', ');
    const attributes = Object.entries(m.docs!.attributes)
      .map(([key, meaning]) => `  - \`${key}\`: ${meaning}`)
      .join('\n');
    return `### ${ids}, key \`${m.key}\`\n\n${m.docs!.proves}\n\nWebhook \`attributes\`:\n\n${attributes}`;
  });
  return `\n\n## Verification methods\n\n${sections.join('\n\n')}`;
}
