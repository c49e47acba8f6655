/**
 * What the upstream viewer's own page reads on a message, sent beside our own fields (real clients first):
 * a poll under `raw_data.poll`, as the upstream's backup engine stores it (the options' `option` bytes in
 * base64, the results when the votes are known), and a service message's line in `text`, with
 * `raw_data.service_type` `service` and the action in `raw_data.action_type`, as its importer writes them.
 * Our page reads `poll` and `service`; both stay.
 */
import type { Poll } from './polls';

interface Shaped {
  text: string | null;
  raw_data: Record<string, unknown> | null;
  poll?: Poll;
  service?: { action: string | null; text: string };
}

/** The option ids the platform gives a poll's answers: the bytes `0`, `1`, ... of each one's place. */
const optionId = (index: number) => Buffer.from(String(index)).toString('base64');

export function upstreamPoll(poll: Poll): Record<string, unknown> {
  const answers = poll.options.map((o, i) => ({ text: o.text, option: optionId(i) }));
  const shape: Record<string, unknown> = {
    question: poll.question,
    answers,
    closed: poll.closed,
    quiz: poll.quiz,
    multiple_choice: poll.multiple_choice,
    public_voters: poll.anonymous === null ? null : !poll.anonymous,
  };
  if (poll.total_voters !== null) {
    shape.results = {
      total_voters: poll.total_voters,
      results: poll.options.map((o, i) => ({
        option: optionId(i),
        voters: o.voters ?? 0,
        chosen: o.chosen,
        correct: o.correct,
      })),
    };
  }
  return shape;
}

export function withUpstreamShapes<M extends Shaped>(message: M): M {
  if (!message.poll && !message.service) return message;
  const raw: Record<string, unknown> = { ...(message.raw_data ?? {}) };
  let text = message.text;
  if (message.poll) raw.poll = upstreamPoll(message.poll);
  if (message.service) {
    raw.service_type = 'service';
    raw.action_type = message.service.action ?? 'service';
    text ??= message.service.text;
  }
  return { ...message, text, raw_data: raw };
}
