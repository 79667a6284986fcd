/**
 * FHIR R4 §3.1.1.5.5 token search on `Identifier`s: `[code]` matches the value in any system,
 * `[system]|[code]` both, `|[code]` a value with no system, `[system]|` any value in the system. A comma
 * separates alternatives (any may match, §3.1.1.3.1); `\,` `\|` `\\` are literal (§3.1.1.6). Pure.
 */
export interface TokenValue {
  /** Undefined: any system; null: the identifier must have none. */
  system: string | null | undefined;
  /** Undefined: any value (`system|`). */
  code: string | undefined;
}

/** Splits on `separator` where it is not escaped, and unescapes the pieces. */
function split(text: string, separator: ',' | '|'): string[] {
  const pieces: string[] = [''];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      const next = text[++i]!;
      // Escapes of the other separator stay for the next split to read.
      pieces[pieces.length - 1] += next === separator ? next : `${c}${next}`;
    } else if (c === separator) pieces.push('');
    else pieces[pieces.length - 1] += c;
  }
  return pieces;
}

const unescape = (text: string) => text.replace(/\\(.)/g, '$1');

/** One parameter value: its alternatives, each a token. */
export function parseTokenAlternatives(raw: string): TokenValue[] {
  return split(raw, ',').map((alternative) => {
    const parts = split(alternative, '|');
    if (parts.length === 1) return { system: undefined, code: unescape(parts[0]!) };
    const system = unescape(parts[0]!);
    const code = unescape(parts.slice(1).join('|'));
    return { system: system === '' ? null : system, code: code === '' ? undefined : code };
  });
}

interface IdentifierLike {
  system?: unknown;
  value?: unknown;
}

function matchesToken(identifier: IdentifierLike, token: TokenValue): boolean {
  const system = typeof identifier.system === 'string' ? identifier.system : undefined;
  if (token.system === null ? system !== undefined : token.system !== undefined && token.system !== system)
    return false;
  return token.code === undefined || identifier.value === token.code;
}

/**
 * Whether a resource's `identifier` list satisfies every parameter value (repeated parameters all apply,
 * §3.1.1.3.1), each by at least one of its alternatives. Values are compared exactly: identifiers are
 * case-sensitive.
 */
export function identifiersMatch(identifiers: unknown, values: TokenValue[][]): boolean {
  const list = (Array.isArray(identifiers) ? identifiers : []) as IdentifierLike[];
  return values.every((alternatives) =>
    alternatives.some((token) => list.some((identifier) => matchesToken(identifier, token))),
  );
}
