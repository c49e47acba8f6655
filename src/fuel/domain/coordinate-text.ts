/**
 * A point written as text, the ways people and the upstream's page write one, latitude first unless the
 * hemisphere letters say otherwise:
 *
 * - decimal degrees: `40.4168, -3.7038`, `40.4168 -3.7038`, `40.4168;-3.7038`, `28, 3`;
 * - hemisphere letters, before or after: `40.4168N 3.7038W`, `N 40.4168, W 3.7038`;
 * - degrees, minutes and seconds: `40°25'00"N 3°42'13"W` (also `′ ″`, `º`, and `''` for seconds);
 * - decimal minutes: `40 25.0, -3 42.2`, `40°25.0'N 3°42.2'W`.
 *
 * Read in one pass over the text (a scanner, no backtracking pattern), so its cost grows with the length
 * of the text only.
 */

type Mark = 'deg' | 'min' | 'sec';
type Token =
  | { kind: 'number'; value: number; negative: boolean; whole: boolean; mark?: Mark }
  | { kind: 'hemisphere'; letter: 'N' | 'S' | 'E' | 'W' }
  | { kind: 'comma' };

const MARKS: Record<string, Mark> = {
  '°': 'deg',
  º: 'deg',
  '˚': 'deg',
  "'": 'min',
  '′': 'min',
  '’': 'min',
  '"': 'sec',
  '″': 'sec',
  '”': 'sec',
};

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isBlank = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\u00a0';

/** The text as tokens, or null at the first character that has no place in a coordinate. */
function scan(text: string): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (isBlank(c)) {
      i++;
    } else if (c === ',' || c === ';') {
      tokens.push({ kind: 'comma' });
      i++;
    } else if (
      isDigit(c) ||
      ((c === '-' || c === '+' || c === '.') && (isDigit(text[i + 1]) || text[i + 1] === '.'))
    ) {
      const start = i;
      const negative = c === '-';
      if (c === '-' || c === '+') i++;
      while (isDigit(text[i])) i++;
      const whole = text[i] !== '.';
      if (text[i] === '.') {
        i++;
        if (!isDigit(text[i])) return null;
        while (isDigit(text[i])) i++;
      }
      // Sixteen characters hold any coordinate; a longer number is no coordinate.
      if (i - start > 16) return null;
      tokens.push({ kind: 'number', value: Math.abs(Number(text.slice(start, i))), negative, whole });
    } else if (MARKS[c]) {
      const last = tokens.at(-1);
      if (last?.kind !== 'number' || last.mark) return null;
      // Two apostrophes are a seconds mark.
      const seconds = c === "'" && text[i + 1] === "'";
      last.mark = seconds ? 'sec' : (MARKS[c] as Mark);
      i += seconds ? 2 : 1;
    } else if (/[NSEWnsew]/.test(c) && !/[A-Za-z]/.test(text[i + 1] ?? '')) {
      tokens.push({ kind: 'hemisphere', letter: c.toUpperCase() as 'N' | 'S' | 'E' | 'W' });
      i++;
    } else {
      return null;
    }
  }
  return tokens;
}

interface Part {
  numbers: Extract<Token, { kind: 'number' }>[];
  hemisphere?: 'N' | 'S' | 'E' | 'W';
}

/** Splits the tokens into the two coordinates: at a comma, at the hemisphere letters, or at a second degree mark. */
function split(tokens: Token[]): [Token[], Token[]] | null {
  const commas = tokens.flatMap((t, i) => (t.kind === 'comma' ? [i] : []));
  if (commas.length > 1) return null;
  if (commas.length === 1) {
    const at = commas[0] as number;
    return [tokens.slice(0, at), tokens.slice(at + 1)];
  }
  const letters = tokens.flatMap((t, i) => (t.kind === 'hemisphere' ? [i] : []));
  if (letters.length === 2) {
    const [a, b] = letters as [number, number];
    // Letters after their numbers (`40N 3W`) or before them (`N40 W3`).
    if (b === tokens.length - 1) return [tokens.slice(0, a + 1), tokens.slice(a + 1)];
    if (a === 0) return [tokens.slice(0, b), tokens.slice(b)];
    return null;
  }
  if (letters.length !== 0) return null;
  const degrees = tokens.flatMap((t, i) => (t.kind === 'number' && t.mark === 'deg' ? [i] : []));
  if (degrees.length === 2) return [tokens.slice(0, degrees[1]), tokens.slice(degrees[1])];
  // Bare numbers with no comma: only a decimal pair reads without doubt.
  if (tokens.length === 2) return [tokens.slice(0, 1), tokens.slice(1)];
  return null;
}

function part(tokens: Token[]): Part | null {
  const numbers: Part['numbers'] = [];
  let hemisphere: Part['hemisphere'];
  for (const [i, t] of tokens.entries()) {
    if (t.kind === 'number') numbers.push(t);
    else if (t.kind === 'hemisphere' && hemisphere === undefined && (i === 0 || i === tokens.length - 1))
      hemisphere = t.letter;
    else return null;
  }
  return numbers.length >= 1 && numbers.length <= 3 ? { numbers, hemisphere } : null;
}

/** Degrees from degrees, minutes and seconds (each after the first under 60), signed; null when malformed. */
function degreesOf({ numbers, hemisphere }: Part): { value: number; axis?: 'lat' | 'lon' } | null {
  const expected: Mark[] = ['deg', 'min', 'sec'];
  let value = 0;
  for (const [i, n] of numbers.entries()) {
    if (n.mark !== undefined && n.mark !== expected[i]) return null;
    if (i > 0 && (n.negative || n.value >= 60)) return null;
    // Only the last of degrees, minutes and seconds may have decimals.
    if (i < numbers.length - 1 && !n.whole) return null;
    value += n.value / 60 ** i;
  }
  const negative = numbers[0]?.negative ?? false;
  if (hemisphere === undefined) return { value: negative ? -value : value };
  if (negative) return null;
  const axis = hemisphere === 'N' || hemisphere === 'S' ? 'lat' : 'lon';
  return { value: hemisphere === 'S' || hemisphere === 'W' ? -value : value, axis };
}

/** The point a text names (`[lon, lat]`), or null when the text is not a point. */
export function coordinatesOf(text: string): [lon: number, lat: number] | null {
  if (text.length > 100) return null;
  const tokens = scan(text);
  const halves = tokens && split(tokens);
  if (!halves) return null;
  const parts = halves.map(part);
  if (!parts[0] || !parts[1]) return null;
  const first = degreesOf(parts[0]);
  const second = degreesOf(parts[1]);
  if (!first || !second) return null;
  let lat = first;
  let lon = second;
  if (first.axis === 'lon' || second.axis === 'lat') [lat, lon] = [second, first];
  if (lat.axis === 'lon' || lon.axis === 'lat') return null;
  return Math.abs(lat.value) <= 90 && Math.abs(lon.value) <= 180 ? [lon.value, lat.value] : null;
}
