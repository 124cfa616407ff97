import type { ReactNode } from 'react';

/**
 * A label above its control, as Studio's stacked editors lay them out (`.topic-form`). The control
 * carries the same `id`, so a click on the label focuses it and a screen reader names it.
 */
export function FormRow({ id, label, children }: { id: string; label: ReactNode; children: ReactNode }) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      {children}
    </>
  );
}

/**
 * A form's buttons: submit (`Save <noun>` when editing, else `<createVerb> <noun>`), then, when
 * editing, Delete and/or Cancel. Extra buttons (`children`) come first. No wrapper: the caller
 * places them in its own `.row`, beside fields or alone.
 */
export function FormButtons(props: {
  noun: string;
  editing: boolean;
  createVerb?: 'Add' | 'Create';
  busy: boolean;
  disabled?: boolean;
  onDelete?: () => void;
  onCancel?: () => void;
  children?: ReactNode;
}) {
  const { noun, editing, createVerb = 'Add', busy, disabled = false, onDelete, onCancel, children } = props;
  return (
    <>
      {children}
      <button type="submit" disabled={busy || disabled}>
        {editing ? `Save ${noun}` : `${createVerb} ${noun}`}
      </button>
      {editing && onDelete && (
        <button type="button" className="danger" onClick={onDelete}>
          Delete {noun}
        </button>
      )}
      {editing && onCancel && (
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      )}
    </>
  );
}
