import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api';
import { Lightbox } from '../media';
import { formatDateTime } from '../time';
import { mediaWords } from './media-words';

type GalleryItem = Schemas['MediaGalleryItem'];

export function Gallery(props: {
  chatRef: string;
  noDownload: boolean;
  onJump: (messageId: number) => void;
}) {
  const [items, setItems] = useState<GalleryItem[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [types, setTypes] = useState('');
  const [open, setOpen] = useState<GalleryItem | null>(null);
  const load = async (before?: string) => {
    const r = await api.GET('/api/chats/{chat_ref}/media', {
      params: {
        path: { chat_ref: props.chatRef },
        query: { limit: 60, ...(types && { types }), ...(before && { before_id: before }) },
      },
    });
    if (!r.data) return;
    setItems((current) => (before ? [...current, ...r.data.items] : r.data.items));
    setHasMore(r.data.has_more);
  };
  useEffect(() => {
    api
      .GET('/api/chats/{chat_ref}/media/counts', { params: { path: { chat_ref: props.chatRef } } })
      .then((r) => setCounts(r.data ?? {}));
  }, []);
  useEffect(() => void load(), [types]);
  return (
    <section class="side-panel gallery" aria-label="Media of this chat">
      <div class="row">
        <label for="media-type">Type</label>
        <select id="media-type" value={types} onChange={(e) => setTypes(e.currentTarget.value)}>
          <option value="">All ({Object.values(counts).reduce((a, b) => a + b, 0)})</option>
          {Object.entries(counts).map(([type, n]) => (
            <option key={type} value={type}>
              {type} ({n})
            </option>
          ))}
        </select>
      </div>
      <ul class="grid">
        {items.map((item) => (
          <li key={item.id}>
            {item.thumb_url && !props.noDownload ? (
              <button
                type="button"
                class="thumb"
                onClick={() => (item.type === 'photo' ? setOpen(item) : props.onJump(item.message_id))}
              >
                <img
                  src={item.thumb_url}
                  alt={`${item.type} from ${formatDateTime(item.date)}`}
                  loading="lazy"
                  width={96}
                  height={96}
                />
              </button>
            ) : (
              <button
                type="button"
                class="tile"
                title={item.file_name ?? undefined}
                onClick={() => props.onJump(item.message_id)}
              >
                {mediaWords(item.type)}
                <span class="muted small">{item.file_name ?? ''}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {items.length === 0 && <p class="muted small">No media.</p>}
      {hasMore && (
        <button type="button" onClick={() => void load(items.at(-1)?.id)}>
          More
        </button>
      )}
      {open?.media_url && <Lightbox src={open.media_url} alt={open.type} onClose={() => setOpen(null)} />}
    </section>
  );
}
