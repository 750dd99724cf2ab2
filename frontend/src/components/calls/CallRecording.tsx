/** A call's recording on its page: the audio element (the one source of the position), its
 * waveform drawn by wavesurfer.js (the agent's channel above, the callee's below; click or drag
 * to seek), a play / pause button and the position. The waveform is also a keyboard slider:
 * arrows move 5 s, Page Up / Down 15 s, Home / End to either end. */
import { Download, Pause, Play } from 'lucide-react'
import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react'
import WaveSurfer from 'wavesurfer.js'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/card'
import { getToken } from '@/lib/session'
import { notify } from '@/lib/toast'
import { playUrl } from './api'
import { formatPosition } from './playback'

const STEP = 5
const PAGE = 15

export function CallRecording({
  callId,
  audioRef,
  time,
  duration,
  playing,
  onDownload,
}: {
  callId: string
  audioRef: RefObject<HTMLAudioElement | null>
  time: number
  duration: number | null
  playing: boolean
  onDownload: () => void
}) {
  const { waveRef, wave } = useWaveform(callId, audioRef)

  const seek = (to: number) => {
    const audio = audioRef.current
    if (!audio) return
    const end = duration ?? audio.duration
    audio.currentTime = Math.max(0, Number.isFinite(end) ? Math.min(to, end) : to)
  }

  const toggle = () => {
    const audio = audioRef.current
    if (!audio) return
    if (audio.paused) void audio.play()?.catch(() => notify.error('Failed to play recording: the recording could not be loaded'))
    else audio.pause()
  }

  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number | undefined> = {
      ArrowLeft: time - STEP,
      ArrowDown: time - STEP,
      ArrowRight: time + STEP,
      ArrowUp: time + STEP,
      PageDown: time - PAGE,
      PageUp: time + PAGE,
      Home: 0,
      End: duration ?? time,
    }
    const to = moves[event.key]
    if (to === undefined) return
    event.preventDefault()
    seek(to)
  }

  return (
    <div className="space-y-3" data-testid="call-recording">
      <audio
        ref={audioRef}
        src={playUrl(callId)}
        preload="auto"
        className="hidden"
        data-testid="call-audio"
        onError={() => notify.error('Failed to play recording: the recording could not be loaded')}
      />
      <div className="flex items-center gap-3">
        <Button size="icon" onClick={toggle} aria-label={playing ? 'Pause recording' : 'Play recording'} className="shrink-0 rounded-full">
          {playing ? <Pause className="h-4 w-4" aria-hidden /> : <Play className="h-4 w-4" aria-hidden />}
        </Button>
        <div className="relative min-w-0 flex-1">
          <div
            ref={waveRef}
            role="slider"
            tabIndex={0}
            aria-label="Recording position"
            aria-valuemin={0}
            aria-valuemax={Math.round(duration ?? 0)}
            aria-valuenow={Math.round(time)}
            aria-valuetext={formatPosition(time)}
            onKeyDown={onKey}
            className="min-h-[88px] cursor-pointer rounded-lg focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
            data-testid="waveform"
          />
          {wave === 'loading' && (
            <p className="pointer-events-none absolute inset-0 flex items-center justify-center gap-2 text-xs text-slate-500">
              <Spinner className="h-3.5 w-3.5" /> Drawing the waveform…
            </p>
          )}
        </div>
        <span className="w-24 shrink-0 text-right text-xs tabular-nums text-slate-600" data-testid="playback-position">
          {formatPosition(time)}
        </span>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-500">
        <span className="flex items-center gap-3">
          <span className="flex items-center gap-1.5">
            <span className="h-2 w-3 rounded-sm bg-indigo-500" aria-hidden /> Agent (top)
          </span>
          <span className="flex items-center gap-1.5">
            <span className="h-2 w-3 rounded-sm bg-slate-500" aria-hidden /> Callee (bottom)
          </span>
        </span>
        {wave === 'failed' && <span role="status">The waveform could not be drawn; the recording still plays.</span>}
        <Button variant="ghost" size="sm" onClick={onDownload} aria-label="Download recording">
          <Download className="h-3.5 w-3.5" aria-hidden /> Download
        </Button>
      </div>
    </div>
  )
}

/** The recording's waveform, drawn by wavesurfer.js in `waveRef` from the audio element's file,
 * and whether it is drawn yet (or could not be). */
function useWaveform(callId: string, audioRef: RefObject<HTMLAudioElement | null>) {
  const waveRef = useRef<HTMLDivElement | null>(null)
  const [wave, setWave] = useState<'loading' | 'ready' | 'failed'>('loading')

  useEffect(() => {
    const container = waveRef.current
    const media = audioRef.current
    if (!container || !media) return
    const token = getToken()
    const surfer = WaveSurfer.create({
      container,
      media,
      // The same address as the element's (absolute, as the element reports it), so wavesurfer
      // keeps the element's source and fetches the file only to draw it.
      url: new URL(playUrl(callId), window.location.origin).href,
      fetchParams: { credentials: 'include', headers: token ? { Authorization: `Bearer ${token}` } : {} },
      height: 44,
      normalize: true,
      barWidth: 2,
      barGap: 1,
      barRadius: 2,
      cursorColor: '#0f172a',
      cursorWidth: 2,
      dragToSeek: true,
      splitChannels: [
        { waveColor: '#a5b4fc', progressColor: '#4f46e5' },
        { waveColor: '#cbd5e1', progressColor: '#475569' },
      ],
    })
    const offReady = surfer.on('ready', () => setWave('ready'))
    const offError = surfer.on('error', () => setWave('failed'))
    return () => {
      offReady()
      offError()
      surfer.destroy()
    }
  }, [callId, audioRef])
  return { waveRef, wave }
}
