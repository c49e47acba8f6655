import { type Config, type FuelCode, offeredFuels } from '../api';

/** The country (the map flies to it) and the fuel shown, among those its feeds carry. */
export function ViewChoice(props: {
  config: Config;
  country: string;
  fuel: FuelCode;
  onCountry: (code: string) => void;
  onFuel: (fuel: FuelCode) => void;
}) {
  const { config } = props;
  return (
    <div class="row">
      <div class="field grow">
        <label for="country">Country</label>
        <select id="country" value={props.country} onChange={(e) => props.onCountry(e.currentTarget.value)}>
          {config.enabledCountries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <div class="field grow">
        <label for="fuel">Fuel</label>
        <select
          id="fuel"
          value={props.fuel}
          onChange={(e) => props.onFuel(e.currentTarget.value as FuelCode)}
        >
          {offeredFuels(config.enabledCountries.find((c) => c.code === props.country)?.fuels, props.fuel).map(
            (f) => (
              <option key={f.code} value={f.code}>
                {f.label}
              </option>
            ),
          )}
        </select>
      </div>
    </div>
  );
}
