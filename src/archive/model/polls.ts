/**
 * A poll as the archive keeps it, whatever brought it in (the desktop app's JSON or HTML export, the
 * platform): the question, the options with their votes, and the poll's flags. Sources say different
 * amounts; what one does not say is null (votes, anonymity) or false (closed, quiz, several answers).
 */

export interface PollOption {
  text: string;
  /** Votes for the option; null when the source does not give them (a poll nobody could see results of). */
  voters: number | null;
  /** Whether the archived account chose it. */
  chosen: boolean;
  /** In a quiz: whether it is the right answer, when the source says. */
  correct: boolean;
}

export interface Poll {
  question: string;
  options: PollOption[];
  /** Everyone who voted; null when the source does not say. */
  total_voters: number | null;
  closed: boolean;
  quiz: boolean;
  multiple_choice: boolean;
  /** Whether votes are anonymous; null when the source does not say. */
  anonymous: boolean | null;
}

/** The words a search finds a poll by: its question, then each option, a line each. */
export function pollSearchText(poll: Poll): string {
  return [poll.question, ...poll.options.map((o) => o.text)].join('\n');
}

/** The first line of the question, for a quote (a reply, a pin). */
export function pollHeadline(poll: Poll): string {
  return poll.question.split('\n', 1)[0]?.trim() ?? '';
}

/** A count written as a number or a string of digits; null otherwise. */
export const count = (value: unknown): number | null => {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
};
/** A flag written as a boolean or as "true". */
export const flag = (value: unknown): boolean => value === true || value === 'true';

/** A stored poll read back, or null when `value` is not one (so a damaged row shows as no poll). */
export function asPoll(value: unknown): Poll | null {
  if (!value || typeof value !== 'object') return null;
  const p = value as Record<string, unknown>;
  if (typeof p.question !== 'string' || !Array.isArray(p.options)) return null;
  const options = p.options.flatMap((o): PollOption[] => {
    if (!o || typeof o !== 'object' || typeof (o as PollOption).text !== 'string') return [];
    const option = o as Record<string, unknown>;
    return [
      {
        text: option.text as string,
        voters: count(option.voters),
        chosen: flag(option.chosen),
        correct: flag(option.correct),
      },
    ];
  });
  return {
    question: p.question,
    options,
    total_voters: count(p.total_voters),
    closed: flag(p.closed),
    quiz: flag(p.quiz),
    multiple_choice: flag(p.multiple_choice),
    anonymous: p.anonymous === null || p.anonymous === undefined ? null : flag(p.anonymous),
  };
}
