import type { Topic } from '../api';

/** A forum's topics, one chosen (or all). */
export function TopicBar(props: {
  topics: Topic[];
  topic: number | null;
  onTopic: (topic: number | null) => void;
}) {
  return (
    <nav class="topics" aria-label="Topics">
      <button type="button" aria-pressed={props.topic === null} onClick={() => props.onTopic(null)}>
        All topics
      </button>
      {props.topics
        .filter((t) => !t.is_hidden)
        .map((t) => (
          <button
            key={t.id}
            type="button"
            aria-pressed={props.topic === t.id}
            onClick={() => props.onTopic(t.id)}
          >
            {t.icon_emoji ?? '#'} {t.title}
            {t.is_closed ? ' (closed)' : ''}
          </button>
        ))}
    </nav>
  );
}
