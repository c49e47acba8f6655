import { formatPrice, type Station } from '../api';

/** A station in a list, priced against the others shown. */
export function StationButton(props: {
  station: Station;
  rel: number | undefined;
  onSelect: (s: Station) => void;
  extra?: preact.ComponentChildren;
}) {
  const p = props.station.properties;
  const tone =
    props.rel === undefined ? 'ev' : props.rel < 0.34 ? 'cheap' : props.rel < 0.67 ? 'mid' : 'dear';
  return (
    <button type="button" class="station" onClick={() => props.onSelect(props.station)}>
      <span class={`dot ${tone}`} aria-hidden="true" />
      <span class="name">
        {p.name}
        <span class="muted"> · {p.city}</span>
      </span>
      <span class="price">
        {p.price !== undefined ? formatPrice(props.station) : p.powerKw ? `${p.powerKw} kW` : ''}
      </span>
      {props.extra}
    </button>
  );
}
