import { useEffect } from 'react'

/** Only one recording plays at a time: starting one pauses every other audio element. */
export function useOneAudioAtATime(): void {
  useEffect(() => {
    const onPlay = (event: Event) => {
      for (const audio of document.querySelectorAll('audio')) {
        if (audio !== event.target && !audio.paused) audio.pause()
      }
    }
    document.addEventListener('play', onPlay, true)
    return () => document.removeEventListener('play', onPlay, true)
  }, [])
}
