import { cn } from '@/lib/cn'
import { notify } from '@/lib/toast'
import { playUrl } from './api'

/** The inline player a call log opens for one recording (it starts at once and toasts the
 * spec's messages). */
export function RecordingPlayer({ callId, className }: { callId: string; className?: string }) {
  return (
    <audio
      controls
      autoPlay
      preload="metadata"
      src={playUrl(callId)}
      className={cn('h-9', className)}
      data-testid={`player-${callId}`}
      onPlay={() => notify.success('Playing recording')}
      onError={() => notify.error('Failed to play recording: the recording could not be loaded')}
    />
  )
}
