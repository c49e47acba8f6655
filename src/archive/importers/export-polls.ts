/** Polls as the desktop app's exports write them, read into the archive's poll (model/polls.ts). */
import { count, flag, type Poll } from '../model/polls';

/**
 * The `poll` object of the desktop app's JSON export: `{question, closed, total_voters, answers: [{text,
 * voters, chosen}]}`, numbers and flags sometimes written as strings. Quiz and anonymity are not exported.
 */
export function pollFromJsonExport(value: unknown): Poll | null {
  if (!value || typeof value !== 'object') return null;
  const p = value as Record<string, unknown>;
  if (typeof p.question !== 'string') return null;
  const answers = Array.isArray(p.answers) ? (p.answers as Record<string, unknown>[]) : [];
  return {
    question: p.question,
    options: answers
      .filter((a) => a && typeof a.text === 'string')
      .map((a) => ({
        text: a.text as string,
        voters: count(a.voters),
        chosen: flag(a.chosen),
        correct: false,
      })),
    total_voters: count(p.total_voters),
    closed: flag(p.closed),
    quiz: false,
    multiple_choice: false,
    anonymous: null,
  };
}

/**
 * A poll block of the desktop app's HTML export: its question, its details line ("Anonymous poll", "Quiz",
 * "Final results" once closed, ...), its answers ("- text", with "N votes" when results are shown) and its
 * total ("278 votes").
 */
export function pollFromHtmlExport(block: {
  question: string;
  details: string;
  answers: { text: string; votes: string }[];
  total: string;
}): Poll {
  const details = block.details.toLowerCase();
  const votes = (text: string) => count(/^(\d+)/.exec(text.replace(/[\s,.]/g, ''))?.[1]);
  return {
    question: block.question,
    options: block.answers.map((a) => ({
      text: a.text.replace(/^-\s*/, '').trim(),
      voters: a.votes ? votes(a.votes) : null,
      chosen: false,
      correct: false,
    })),
    total_voters: block.total ? votes(block.total) : null,
    closed: details.includes('final results') || details.includes('closed'),
    quiz: details.includes('quiz'),
    multiple_choice: false,
    anonymous: details.includes('anonymous') ? true : details === 'poll' || details === 'quiz' ? false : null,
  };
}
