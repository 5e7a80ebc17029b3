/**
 * The runtime expressions of OpenAPI Link Objects the contract uses, in the forms the code samples' generator,
 * the contract lint and `contrato verify` follow (the spec's links chain a producer's answer to its consumers).
 */

/** A runtime expression of a link, parsed. */
export type LinkExpression =
  | { readonly source: 'response'; readonly part: 'body'; readonly pointer: string }
  | { readonly source: 'request'; readonly part: 'body'; readonly pointer: string }
  | { readonly source: 'request'; readonly part: 'path' | 'query' | 'header'; readonly name: string };

/** The supported forms: `$response.body#/id`, `$request.body#/a/b`, `$request.path.txid` (also query, header). */
export const linkExpressionForms = '$response.body#/<pointer>, $request.body#/<pointer>, $request.(path|query|header).<name>';

export function parseLinkExpression(text: string): LinkExpression | null {
  const body = /^\$(response|request)\.body#(\/.*|)$/.exec(text);
  if (body) return { source: body[1] as 'response' | 'request', part: 'body', pointer: body[2]! };
  const parameter = /^\$request\.(path|query|header)\.([^\s]+)$/.exec(text);
  if (parameter) return { source: 'request', part: parameter[1] as 'path' | 'query' | 'header', name: parameter[2]! };
  return null;
}
