/**
 * The agent's side of Live Video, without the view: the signalling socket (same origin, the
 * dashboard's cookie), the queue it reports, and the call (the agent answers the user's offer).
 */
import type { IceServer, LiveVideoEndReason, LiveVideoToAgent, LiveVideoWaiting } from '../api/methods/live_video.js';
import { PeerCall } from '../steps/live_video/peer-call.js';

/** What the view is told. */
export interface AgentEvents {
  queue(waiting: LiveVideoWaiting[]): void;
  /** The call is the agent's, for `secondsLeft` at most (the configured length limit). */
  picked(userId: number, secondsLeft: number): void;
  remote(stream: MediaStream | null): void;
  ended(reason: LiveVideoEndReason): void;
  problem(message: string): void;
  closed(): void;
}

export class LiveVideoAgent {
  #socket: WebSocket | null = null;
  #call: PeerCall | null = null;
  #local: MediaStream | null = null;
  #ice: IceServer[] = [];

  constructor(private readonly events: AgentEvents) {}

  /** The agent's own camera and microphone (the user sees and hears them), or none when refused. */
  get local(): MediaStream | null {
    return this.#local;
  }

  connect(): void {
    const url = new URL('/admin/api/live-video/socket', location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.#socket = socket;
    socket.addEventListener('message', (e) => void this.#onMessage(JSON.parse(String(e.data)) as LiveVideoToAgent));
    socket.addEventListener('close', () => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.#endCall();
      this.events.closed();
    });
  }

  /** Takes a waiting user's call; the camera is asked for first, so the answer carries it. */
  async pick(userId: number): Promise<void> {
    if (!this.#local) {
      try {
        this.#local = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
      } catch {
        // The agent may still see and hear the user; the user is told nothing is wrong.
        this.#local = null;
      }
    }
    this.#send({ type: 'pick', user_id: userId });
  }

  hangUp(): void {
    this.#send({ type: 'hangup' });
    this.#endCall();
  }

  /** The call is over (decided): the peer connection goes, the socket stays for the next user. */
  endCall(): void {
    this.#endCall();
  }

  close(): void {
    const socket = this.#socket;
    this.#socket = null;
    socket?.close();
    this.#endCall();
    for (const track of this.#local?.getTracks() ?? []) track.stop();
    this.#local = null;
  }

  #send(body: unknown): void {
    if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(body));
  }

  #endCall(): void {
    this.#call?.close();
    this.#call = null;
    this.events.remote(null);
  }

  async #onMessage(message: LiveVideoToAgent): Promise<void> {
    switch (message.type) {
      case 'queue':
        this.#ice = message.ice_servers;
        this.events.queue(message.waiting);
        return;
      case 'picked':
        this.#call = new PeerCall(
          this.#ice,
          this.#local,
          (signal) => this.#send({ type: 'signal', signal }),
          (stream) => this.events.remote(stream),
        );
        this.events.picked(message.user_id, message.seconds_left);
        return;
      case 'signal':
        await this.#call?.receive(message.signal);
        return;
      case 'ended':
        this.#endCall();
        this.events.ended(message.reason);
        return;
      case 'error':
        this.events.problem(message.error_message);
        return;
    }
  }
}
