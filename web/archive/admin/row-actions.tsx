/** The actions of a viewer or share-link row: switch it on or off, delete it. */
export function RowActions(props: { toggle: string; onToggle: () => void; onDelete: () => void }) {
  return (
    <td class="actions">
      <button type="button" onClick={props.onToggle}>
        {props.toggle}
      </button>
      <button type="button" onClick={props.onDelete}>
        Delete
      </button>
    </td>
  );
}
