import { Pause, Play } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/card'
import { cn } from '@/lib/cn'
import { notify } from '@/lib/toast'

/** The voices to choose from, each with its sample to play. */
export function VoicePicker({ voices, loading, value, onChange, disabled }: { voices: { name: string; description?: string | null; recording_url: string }[] | undefined; loading: boolean; value: string; onChange: (v: string) => void; disabled?: boolean }) {
  const [playing, setPlaying] = useState<string | null>(null)
  const audio = useRef<HTMLAudioElement | null>(null)

  useEffect(() => () => audio.current?.pause(), [])

  const toggle = async (name: string, url: string) => {
    audio.current?.pause()
    if (playing === name) {
      setPlaying(null)
      return
    }
    const sample = new Audio(url)
    audio.current = sample
    sample.onended = () => setPlaying((current) => (current === name ? null : current))
    setPlaying(name)
    try {
      await sample.play()
    } catch {
      setPlaying(null)
      notify.error('Failed to play voice sample')
    }
  }

  return (
    <fieldset className="min-w-0">
      <legend className="text-sm font-medium text-slate-700">Voice</legend>
      {loading ? (
        <div className="mt-2 space-y-2">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : (
        <ul className="mt-2 max-h-64 space-y-1.5 overflow-y-auto pr-1">
          {(voices ?? []).map((v) => (
            <li key={v.name} className={cn('flex items-center gap-2 rounded-lg px-3 py-2 ring-1 ring-inset', value === v.name ? 'bg-indigo-50 ring-indigo-300' : 'ring-slate-200')}>
              <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2">
                <input type="radio" name="voice" value={v.name} checked={value === v.name} disabled={disabled} onChange={() => onChange(v.name)} className="accent-indigo-600" />
                <span className="min-w-0">
                  <span className="block text-sm font-semibold text-slate-900">{v.name}</span>
                  <span className="block truncate text-xs text-slate-600">{v.description || 'No description available'}</span>
                </span>
              </label>
              <Button variant="secondary" size="sm" onClick={() => void toggle(v.name, v.recording_url)} aria-label={`${playing === v.name ? 'Stop' : 'Play'} sample of ${v.name}`}>
                {playing === v.name ? <Pause className="h-3.5 w-3.5" aria-hidden /> : <Play className="h-3.5 w-3.5" aria-hidden />}
                {playing === v.name ? 'Stop' : 'Play'}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  )
}
