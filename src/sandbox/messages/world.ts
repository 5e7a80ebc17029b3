/**
 * The messages sandbox as `GET /_sandbox` lists it: the messages waiting on the long poll, the received ones
 * still owing an answer (a pacs.008 to answer with a pacs.002), and the keys of the directory.
 */
import type { MessagesState } from './state.js';

export function messagesWorld(state: MessagesState): Record<string, unknown> {
  return {
    waitingOnThePoll: state.queue.length,
    owedAnswers: Object.entries(state.owed)
      .filter(([, owed]) => !owed.answered)
      .map(([reply]) => reply),
    directoryKeys: Object.keys(state.keys),
  };
}
