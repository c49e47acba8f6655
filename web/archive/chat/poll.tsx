import type { Message } from '../api';

/** A poll as a chat app draws it: the question, its kind, each option with its share of the votes. */
export type Poll = NonNullable<Message['poll']>;

/** A poll's kind as a chat app names it: "Anonymous poll", "Quiz", "Final results" once closed. */
function pollKind(poll: Poll): string {
  if (poll.closed) return 'Final results';
  const kind = poll.quiz ? 'quiz' : 'poll';
  if (poll.anonymous === null) return poll.quiz ? 'Quiz' : 'Poll';
  return `${poll.anonymous ? 'Anonymous' : 'Public'} ${kind}`;
}

export function PollView(props: { poll: Poll }) {
  const { poll } = props;
  const counted = poll.options.some((o) => o.voters !== null);
  const total = poll.total_voters ?? poll.options.reduce((sum, o) => sum + (o.voters ?? 0), 0);
  const votes = (n: number) => `${n} vote${n === 1 ? '' : 's'}`;
  return (
    <figure class="poll">
      <figcaption>
        <strong class="poll-question">{poll.question}</strong>
        <span class="muted small">{pollKind(poll)}</span>
      </figcaption>
      <ul>
        {poll.options.map((o, i) => {
          const share = counted && total > 0 ? Math.round(((o.voters ?? 0) / total) * 100) : null;
          return (
            <li key={`${i}-${o.text}`} class={o.chosen ? 'chosen' : ''}>
              <span class="poll-option">
                {o.text}
                {o.chosen && <span class="visually-hidden"> (your vote)</span>}
                {o.correct && <span class="badge">right answer</span>}
              </span>
              {share !== null && (
                <span class="poll-share small" title={votes(o.voters ?? 0)}>
                  {share}%
                </span>
              )}
              {share !== null && <span class="poll-bar" style={{ width: `${share}%` }} aria-hidden="true" />}
            </li>
          );
        })}
      </ul>
      {poll.total_voters !== null && <p class="muted small">{votes(poll.total_voters)}</p>}
    </figure>
  );
}
