import { CopyField } from '../../shared/copy-field';
import { formatPrice, type Station } from '../api';

const formatWhen = (iso: string | undefined) =>
  iso
    ? new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
    : '';

/** A station opened from the map or a list: its price, when it was stored, a link to share it. */
export function StationCard(props: { station: Station; share?: string }) {
  const p = props.station.properties;
  return (
    <div class="card" data-testid="station-card">
      <h3>{p.name}</h3>
      {p.brand && <p class="muted">{p.brand}</p>}
      <p>
        {p.address}, {p.city}
      </p>
      {p.price !== undefined ? (
        <p>
          <strong class="big">{formatPrice(props.station)}</strong> {p.fuelType} ({p.currency})
          <br />
          <span class="muted">stored {formatWhen(p.reportedAt)}</span>
        </p>
      ) : (
        <p>EV charging{p.powerKw !== undefined ? `, up to ${p.powerKw} kW` : ', power not given'}</p>
      )}
      {props.share && (
        <div class="share">
          <CopyField id="share-link" label="Share link" value={props.share} />
        </div>
      )}
    </div>
  );
}
