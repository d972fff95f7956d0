/**
 * The passphrase prompt app/ opens through settingsUiStore.askPassphrase: unlocking keys (also
 * when a run needs one), locking them, and full settings export/import. A new passphrase is
 * typed twice; a `verify` callback keeps the dialog open with the reason when it fails.
 */
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { KEY_PASSPHRASE_MIN_CHARS } from '../../defaults.ts'
import { Button } from '../kit/Button.tsx'
import { Dialog } from '../kit/Dialog.tsx'
import { SecretInput } from './SecretInput.tsx'
import { errorText } from './errorText.ts'
import { useSettingsUi, type PassphraseRequest } from '../../store/settingsUiStore.ts'

export function PassphraseDialog() {
  const request = useSettingsUi((s) => s.passphrase)
  if (request === null) return null
  // Keyed by request so every prompt starts empty.
  return <PassphrasePrompt key={request.id} request={request} />
}

function PassphrasePrompt({ request }: { request: PassphraseRequest }) {
  const { t, i18n } = useTranslation('settings')
  const answer = useSettingsUi((s) => s.answerPassphrase)
  const [first, setFirst] = useState('')
  const [second, setSecond] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const ids = { first: useId(), second: useId(), problem: useId(), text: useId() }

  const cancel = (): void => answer(request.id, null)

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault()
    if (busy) return
    if (request.confirm && first.length < KEY_PASSPHRASE_MIN_CHARS) {
      setProblem(t('passphrase.tooShort', { count: KEY_PASSPHRASE_MIN_CHARS }))
      return
    }
    if (request.confirm && first !== second) {
      setProblem(t('passphrase.mismatch'))
      return
    }
    if (first === '') {
      setProblem(t('passphrase.required'))
      return
    }
    if (request.verify !== undefined) {
      setBusy(true)
      setProblem(null)
      try {
        await request.verify(first)
      } catch (error) {
        setBusy(false)
        setProblem(errorText(t, i18n, error))
        return
      }
    }
    answer(request.id, first)
  }

  const purpose = request.purpose
  return (
    <Dialog
      open
      size="sm"
      title={t(`passphrase.${purpose}.title`)}
      closeLabel={t('common.close')}
      onClose={cancel}
      testId="passphrase-dialog"
    >
      <form
        className="wf-settings-form"
        onSubmit={(e) => void submit(e)}
        noValidate
        aria-describedby={ids.text}
      >
        <p id={ids.text} className="wf-settings-hint">
          {t(`passphrase.${purpose}.text`, { subject: request.subject ?? '' })}
        </p>
        <div className="wf-field">
          <label htmlFor={ids.first}>{t(request.confirm ? 'passphrase.new' : 'passphrase.label')}</label>
          <SecretInput
            id={ids.first}
            className="wf-input"
            type="password"
            autoComplete={request.confirm ? 'new-password' : 'current-password'}
            data-autofocus
            data-testid="passphrase-input"
            value={first}
            aria-invalid={problem !== null || undefined}
            aria-describedby={problem !== null ? ids.problem : undefined}
            onValue={setFirst}
          />
        </div>
        {request.confirm ? (
          <div className="wf-field">
            <label htmlFor={ids.second}>{t('passphrase.again')}</label>
            <SecretInput
              id={ids.second}
              className="wf-input"
              type="password"
              autoComplete="new-password"
              data-testid="passphrase-confirm-input"
              value={second}
              onValue={setSecond}
            />
          </div>
        ) : null}
        {problem !== null ? (
          <p id={ids.problem} className="wf-settings-error" role="alert" data-testid="passphrase-error">
            {problem}
          </p>
        ) : null}
        <div className="wf-settings-actions">
          <Button onClick={cancel}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" disabled={busy} data-testid="passphrase-submit">
            {busy ? t('passphrase.checking') : t(`passphrase.${purpose}.submit`)}
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
