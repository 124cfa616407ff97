import { useState } from 'react';

/**
 * A secret the API hands out once (a key, a signing secret): shown with a copy button, and gone
 * when the person dismisses it. The clipboard may be refused (no permission, an insecure origin):
 * then the text is selected so a keyboard copy still works.
 */
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      const code = document.getElementById('secret-once');
      if (code) window.getSelection()?.selectAllChildren(code);
      setCopied('no');
    }
  };
  return (
    <div className="callout" role="status">
      <p>
        {label} (shown once; store it now):{' '}
        <code id="secret-once" data-testid="secret-once">
          {secret}
        </code>
      </p>
      <div className="row">
        <button type="button" onClick={copy}>
          Copy
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
        <span aria-live="polite">
          {copied === 'yes' && 'Copied to the clipboard.'}
          {copied === 'no' && 'The browser refused the clipboard: the text is selected, press Ctrl+C.'}
        </span>
      </div>
    </div>
  );
}
