import { methodById } from './catalogue.js';
import { stepKeyOf } from '../methods/registry.js';

/**
 * Methods of spec 2.2 that the end-user flow has no step for yet. A user given a template holding
 * one would meet "This step cannot be done on this page" and could never finish, so such templates
 * are refused where they are made or given to anyone (issue 24) until every method has its step.
 */
export function methodsWithoutStep(methodIds: readonly number[]): number[] {
  return methodIds.filter((id) => stepKeyOf(id) === 'other');
}

/** Why a template with these methods cannot be used, in words for an operator; undefined when it can. */
export function templateRefusal(methodIds: readonly number[]): string | undefined {
  const missing = methodsWithoutStep(methodIds);
  if (missing.length === 0) return undefined;
  const names = missing.map((id) => `${methodById(id)?.name ?? 'Unknown'} (${id})`).join(', ');
  const verb = missing.length === 1 ? 'has' : 'have';
  return `${names} ${verb} no step in the verification flow yet: a user given this template could not finish it.`;
}
