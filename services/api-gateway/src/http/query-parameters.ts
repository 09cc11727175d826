/**
 * D29: unknown query parameters are refused on every GET. A list's command
 * checks its own query against its contract; a GET whose command takes no
 * query (a read by id, the balance, the endpoints, the event stream) is
 * checked here, before anything is sent on, so that a misspelt parameter is
 * never silently ignored.
 */
import { queryProblem, type AppError } from '@gateway/problem';

/** The problem naming every parameter of `query`, in request order and in the lists' words; undefined when there is none. */
export function unknownParametersProblem(query: Readonly<Record<string, unknown>>): AppError | undefined {
  const fields = Object.keys(query);
  if (fields.length === 0) return undefined;
  return queryProblem(
    fields.map((field) => ({ field, code: 'invalid', message: `${field} is not a known field.` })),
    query,
  );
}
