import { useEffect, useState } from 'preact/hooks';
import { Notice } from '../shared/notice';
import { api, chatTitle, detail, type SearchResult } from './api';
import { Avatar } from './chats/avatar';
import { RichText } from './text';
import { formatDateTime } from './time';

/** A letter or digit: what the server searches as a word (src/archive/model/search.ts). */
const HAS_WORD = /[\p{L}\p{N}]/u;

/** Search across chats (`kind: 'search'`) or one tag (`kind: 'tag'`), newest first, with paging. */
export function ResultsPage(props: { kind: 'search' | 'tag'; value: string }) {
  const [results, setResults] = useState<SearchResult[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);

  const load = async (offset: number) => {
    setLoading(true);
    setError(null);
    if (props.kind === 'search') {
      const r = await api.GET('/api/search/messages', {
        params: { query: { q: props.value, limit: 30, offset } },
      });
      setLoading(false);
      if (!r.data) return setError(detail(r));
      setResults((current) => (offset === 0 ? r.data.results : [...current, ...r.data.results]));
      setHasMore(r.data.has_more);
      // Without the full-text index the words are matched as text (slower, as complete); a query with
      // no word in it (an emoji) is always matched so, and needs no note.
      setNote(
        r.data.indexed || !HAS_WORD.test(props.value)
          ? null
          : 'The search index is missing: the words were matched as text, which is slower.',
      );
    } else {
      const r = await api.GET('/api/tags/{tag}', {
        params: { path: { tag: props.value }, query: { limit: 50, offset } },
      });
      setLoading(false);
      if (!r.data) return setError(detail(r));
      setResults((current) => (offset === 0 ? r.data.results : [...current, ...r.data.results]));
      setHasMore(r.data.has_more);
      setNote(r.data.truncated ? 'Only the newest matches are shown.' : null);
    }
  };
  useEffect(() => {
    if (props.value) void load(0);
  }, [props.kind, props.value]);

  const heading = props.kind === 'search' ? `Search: “${props.value}”` : `Tag ${props.value}`;
  return (
    <section class="results" aria-labelledby="results-title">
      <header class="chat-head">
        <a href="#/" class="back" aria-label="Back to chats">
          ←
        </a>
        <h1 id="results-title">{heading}</h1>
      </header>
      {error && <Notice kind="error">{error}</Notice>}
      {note && <Notice kind="warning">{note}</Notice>}
      {!loading && results.length === 0 && !error && <p class="muted pad">Nothing found.</p>}
      <ol class="result-list" data-testid="results">
        {results.map((r) => {
          const title = chatTitle(r.chat);
          return (
            <li key={`${r.chat.ref}-${r.id}`}>
              <a class="result" href={`#/chat/${encodeURIComponent(r.chat.ref)}?message=${r.id}`}>
                <Avatar url={r.chat.avatar_url} name={title} size={32} />
                <span class="grow">
                  <span class="row-between">
                    <strong>{title}</strong>
                    <span class="muted small">{formatDateTime(r.date)}</span>
                  </span>
                  <span class="muted small">
                    {r.sender_name ?? 'Unknown'}
                    {r.topic_title ? ` · ${r.topic_title}` : ''}
                    {r.matched_in === 'transcript' ? ' · in transcript' : ''}
                    {r.is_deleted ? ' · deleted' : ''}
                  </span>
                  <span class="snippet">
                    <RichText text={r.text} highlight={props.value} links={false} />
                  </span>
                </span>
              </a>
            </li>
          );
        })}
      </ol>
      {hasMore && (
        <button type="button" class="more" onClick={() => void load(results.length)}>
          More results
        </button>
      )}
    </section>
  );
}
