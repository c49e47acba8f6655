/** A labelled text input, the label above it. */
export function Field(props: {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  password?: boolean;
  autocomplete?: string;
}) {
  const common = {
    id: props.id,
    autocomplete: props.autocomplete,
    value: props.value,
    onInput: (e: { currentTarget: HTMLInputElement }) => props.onValue(e.currentTarget.value),
  };
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.password ? <input type="password" {...common} /> : <input {...common} />}
    </div>
  );
}
