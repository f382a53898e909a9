/**
 * One side of Live Video's WebRTC call: the peer connection, its local tracks, and the signals it
 * trades with the other side through our server (an offer or answer, ICE candidates). The user's
 * step makes the offer; the agent's dashboard answers. Shared by both.
 */
import type { IceServer, LiveVideoSignal } from '../../api/methods/live_video.js';

export class PeerCall {
  readonly connection: RTCPeerConnection;
  /** Candidates that came before the remote description (they cannot be added before it). */
  readonly #early: RTCIceCandidateInit[] = [];

  constructor(
    iceServers: readonly IceServer[],
    local: MediaStream | null,
    private readonly sendSignal: (signal: LiveVideoSignal) => void,
    onRemote: (stream: MediaStream) => void,
  ) {
    this.connection = new RTCPeerConnection({ iceServers: iceServers.map((s) => ({ ...s })) });
    for (const track of local?.getTracks() ?? []) this.connection.addTrack(track, local!);
    this.connection.addEventListener('icecandidate', (e) => {
      if (!e.candidate) return;
      const c = e.candidate.toJSON();
      this.sendSignal({
        candidate: {
          candidate: c.candidate ?? '',
          sdpMid: c.sdpMid ?? null,
          sdpMLineIndex: c.sdpMLineIndex ?? null,
          usernameFragment: c.usernameFragment ?? null,
        },
      });
    });
    this.connection.addEventListener('track', (e) => {
      onRemote(e.streams[0] ?? new MediaStream([e.track]));
    });
  }

  /** The caller's side: an offer to receive (and send) audio and video. */
  async offer(): Promise<void> {
    if (this.connection.getTransceivers().length === 0) {
      this.connection.addTransceiver('audio', { direction: 'recvonly' });
      this.connection.addTransceiver('video', { direction: 'recvonly' });
    }
    const offer = await this.connection.createOffer();
    await this.connection.setLocalDescription(offer);
    this.sendSignal({ description: { type: 'offer', sdp: offer.sdp ?? '' } });
  }

  /** A signal from the other side: a description (answered when it is an offer) or a candidate. */
  async receive(signal: LiveVideoSignal): Promise<void> {
    if ('description' in signal) {
      await this.connection.setRemoteDescription(signal.description);
      for (const candidate of this.#early.splice(0)) await this.connection.addIceCandidate(candidate);
      if (signal.description.type === 'offer') {
        const answer = await this.connection.createAnswer();
        await this.connection.setLocalDescription(answer);
        this.sendSignal({ description: { type: 'answer', sdp: answer.sdp ?? '' } });
      }
      return;
    }
    if (!this.connection.remoteDescription) this.#early.push(signal.candidate);
    else await this.connection.addIceCandidate(signal.candidate);
  }

  close(): void {
    this.connection.close();
  }
}
