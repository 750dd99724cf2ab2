/** "How it works": a real call, played with its transcript appearing in time. The recording and
 * the timed transcript come from a call placed on the sandbox network by
 * scripts/record_demo_call.py (not edited by hand). */
import { Pause, Play } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { cn } from '@/lib/cn'
import demo from './demo/demo-call.json'
import demoAudio from './demo/demo-call.mp3'
import { linesStarted, type DemoLine } from './demoTimeline'

const LINES: DemoLine[] = demo.lines

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`

function Thumbnail({ onPlay }: { onPlay: () => void }) {
  // Drawn here (no external image): a call screen with a transcript, under a play button.
  return (
    <div className="relative overflow-hidden rounded-2xl shadow-xl ring-1 ring-slate-200" data-testid="demo-video">
      <svg viewBox="0 0 640 360" className="block h-auto w-full" aria-hidden>
        <defs>
          <linearGradient id="vt-bg" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#312e81" />
            <stop offset="1" stopColor="#0f172a" />
          </linearGradient>
        </defs>
        <rect width="640" height="360" fill="url(#vt-bg)" />
        <rect x="40" y="40" width="250" height="280" rx="18" fill="#1e1b4b" stroke="#4338ca" />
        <circle cx="165" cy="110" r="34" fill="#4f46e5" />
        <rect x="105" y="160" width="120" height="12" rx="6" fill="#a5b4fc" />
        <rect x="125" y="182" width="80" height="8" rx="4" fill="#6366f1" />
        {[0, 1, 2, 3, 4, 5, 6, 7].map((i) => (
          <rect key={i} x={120 + i * 12} y={250 - [10, 22, 14, 30, 18, 26, 12, 20][i]} width="6" height={[10, 22, 14, 30, 18, 26, 12, 20][i]} rx="3" fill="#6ee7b7" />
        ))}
        <rect x="320" y="60" width="260" height="44" rx="14" fill="#4f46e5" />
        <rect x="336" y="76" width="200" height="10" rx="5" fill="#c7d2fe" />
        <rect x="320" y="120" width="220" height="44" rx="14" fill="#1e293b" />
        <rect x="336" y="136" width="160" height="10" rx="5" fill="#94a3b8" />
        <rect x="340" y="180" width="240" height="44" rx="14" fill="#4f46e5" />
        <rect x="356" y="196" width="180" height="10" rx="5" fill="#c7d2fe" />
        <rect x="320" y="240" width="200" height="44" rx="14" fill="#1e293b" />
        <rect x="336" y="256" width="130" height="10" rx="5" fill="#94a3b8" />
      </svg>
      <button
        type="button"
        onClick={onPlay}
        className="group absolute inset-0 flex items-center justify-center bg-slate-900/20 focus-visible:outline-4 focus-visible:outline-offset-[-4px] focus-visible:outline-indigo-400"
        aria-label={`Play the demo call (${clock(demo.seconds)})`}
      >
        <span className="flex h-16 w-16 items-center justify-center rounded-full bg-white/95 text-indigo-600 shadow-lg transition group-hover:scale-105">
          <Play className="ml-1 h-7 w-7" aria-hidden />
        </span>
      </button>
      <span className="pointer-events-none absolute bottom-3 right-3 rounded-md bg-slate-900/80 px-2 py-0.5 text-xs font-medium text-white">{clock(demo.seconds)}</span>
    </div>
  )
}

function Player() {
  const audio = useRef<HTMLAudioElement>(null)
  const log = useRef<HTMLOListElement>(null)
  const [time, setTime] = useState(0)
  const [playing, setPlaying] = useState(false)
  const shown = linesStarted(LINES, time)

  useEffect(() => {
    // Started by the visitor's click on the thumbnail; a browser that refuses shows the controls.
    audio.current?.play().catch(() => setPlaying(false))
  }, [])
  useEffect(() => {
    const list = log.current
    if (list) list.scrollTop = list.scrollHeight
  }, [shown])

  const toggle = () => {
    const a = audio.current
    if (!a) return
    if (playing) a.pause()
    else void a.play().catch(() => setPlaying(false))
  }

  return (
    <div className="overflow-hidden rounded-2xl bg-slate-900 shadow-xl ring-1 ring-slate-200" data-testid="demo-player">
      <audio
        ref={audio}
        src={demoAudio}
        preload="auto"
        onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
      />
      <div className="flex items-center gap-3 border-b border-white/10 px-4 py-3">
        <button
          type="button"
          onClick={toggle}
          aria-label={playing ? 'Pause the demo call' : 'Play the demo call'}
          className="flex h-10 w-10 items-center justify-center rounded-full bg-indigo-500 text-white hover:bg-indigo-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-300"
        >
          {playing ? <Pause className="h-5 w-5" aria-hidden /> : <Play className="ml-0.5 h-5 w-5" aria-hidden />}
        </button>
        <input
          type="range"
          min={0}
          max={demo.seconds}
          step={0.1}
          value={Math.min(time, demo.seconds)}
          onChange={(e) => {
            const a = audio.current
            if (a) a.currentTime = Number(e.target.value)
            setTime(Number(e.target.value))
          }}
          aria-label="Position in the demo call"
          className="h-1 flex-1 cursor-pointer accent-indigo-400"
        />
        <span className="w-20 text-right text-xs tabular-nums text-slate-300" data-testid="demo-clock">
          {clock(time)} / {clock(demo.seconds)}
        </span>
      </div>
      <ol ref={log} role="log" aria-label="Demo call transcript" className="h-72 space-y-2 overflow-y-auto px-4 py-4 text-sm">
        {shown === 0 && <li className="text-center text-slate-400">Ringing... the transcript appears as they speak.</li>}
        {LINES.slice(0, shown).map((line, i) => (
          <li key={i} data-speaker={line.speaker} className={cn('flex', line.speaker === 'agent' ? 'justify-start' : 'justify-end')}>
            <span
              className={cn(
                'max-w-[85%] rounded-2xl px-3 py-2 transition-opacity',
                line.speaker === 'agent' ? 'rounded-bl-sm bg-indigo-500 text-white' : 'rounded-br-sm bg-slate-700 text-slate-100',
                i < shown - 1 && 'opacity-70',
              )}
            >
              <span className="block text-[11px] font-semibold uppercase tracking-wide opacity-75">{line.speaker === 'agent' ? 'Agent' : 'Callee'}</span>
              {line.text}
            </span>
          </li>
        ))}
      </ol>
    </div>
  )
}

export function DemoCall() {
  const [open, setOpen] = useState(false)
  return (
    <figure>
      {open ? <Player /> : <Thumbnail onPlay={() => setOpen(true)} />}
      <figcaption className="mt-3 text-sm text-slate-500">
        A real call on Callwright&apos;s sandbox network, recorded as it happened: the agent ({demo.voice} voice, offline speech engines, the offline demo brain) calls a
        simulated callee.
      </figcaption>
    </figure>
  )
}
