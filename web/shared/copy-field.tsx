import { useState } from 'preact/hooks';

/** A value to copy (a link shown once, a share link): selected on focus, with a button that copies it. */
export function CopyField(props: { id: string; label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <div class="row">
        <input
          id={props.id}
          class="grow"
          readOnly
          value={props.value}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard?.writeText(props.value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </>
  );
}
