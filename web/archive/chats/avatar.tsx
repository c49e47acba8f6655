import { useState } from 'preact/hooks';
import { initials } from '../api';

/** A chat's or person's picture, or their initials when there is none (or it fails to load). */
export function Avatar(props: { url: string | null; name: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  const size = props.size ?? 40;
  return props.url && !failed ? (
    <img
      class="avatar"
      src={props.url}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      onError={() => setFailed(true)}
    />
  ) : (
    <span class="avatar initials" aria-hidden="true">
      {initials(props.name)}
    </span>
  );
}
