import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Notice } from '../../shared/notice';
import { api, detail } from '../api';
import { dayOf, formatDay, timeZone } from '../time';

export function Calendar(props: {
  chatRef: string;
  topic: number | null;
  /** When the chat's newest message was sent: the calendar opens on its month. */
  newest: string | null;
  onPick: (id: number) => void;
}) {
  const [month, setMonth] = useState(() => dayOf(props.newest ?? new Date().toISOString()).slice(0, 7));
  const [days, setDays] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api
      .GET('/api/chats/{chat_ref}/messages/dates', {
        params: {
          path: { chat_ref: props.chatRef },
          query: { month, timezone: timeZone(), ...(props.topic !== null && { topic_id: props.topic }) },
        },
      })
      .then((r) => setDays(new Set(r.data?.dates ?? [])));
  }, [month, props.topic]);
  const [year = 2000, mon = 1] = month.split('-').map(Number);
  const first = new Date(Date.UTC(year, mon - 1, 1));
  const count = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  const lead = (first.getUTCDay() + 6) % 7;
  const shift = (delta: number) => {
    const d = new Date(Date.UTC(year, mon - 1 + delta, 1));
    setMonth(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`);
  };
  const pick = async (day: string) => {
    const r = await api.GET('/api/chats/{chat_ref}/messages/by-date', {
      params: {
        path: { chat_ref: props.chatRef },
        query: { date: day, timezone: timeZone(), ...(props.topic !== null && { topic_id: props.topic }) },
      },
    });
    if (r.data) props.onPick(r.data.id);
    else setError(detail(r));
  };
  const cells: ComponentChildren[] = [];
  for (let i = 0; i < lead; i++) cells.push(<span key={`lead-${i}`} />);
  for (let d = 1; d <= count; d++) {
    const day = `${month}-${String(d).padStart(2, '0')}`;
    cells.push(
      <button
        key={day}
        type="button"
        disabled={!days.has(day)}
        onClick={() => void pick(day)}
        aria-label={formatDay(day)}
      >
        {d}
      </button>,
    );
  }
  return (
    <section class="side-panel calendar" aria-label="Jump to date">
      <div class="row">
        <button type="button" onClick={() => shift(-1)} aria-label="Previous month">
          ‹
        </button>
        <label for="month" class="visually-hidden">
          Month
        </label>
        <input
          id="month"
          type="month"
          value={month}
          onChange={(e) => e.currentTarget.value && setMonth(e.currentTarget.value)}
        />
        <button type="button" onClick={() => shift(1)} aria-label="Next month">
          ›
        </button>
      </div>
      <div class="grid7" aria-hidden="false">
        {['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'].map((d) => (
          <span key={d} class="muted small">
            {d}
          </span>
        ))}
        {cells}
      </div>
      {days.size === 0 && <p class="muted small">No messages this month.</p>}
      {error && <Notice kind="error">{error}</Notice>}
    </section>
  );
}
