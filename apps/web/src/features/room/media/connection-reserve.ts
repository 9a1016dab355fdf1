import { cancelPriming, peerConnectionConfig, primeOffer, type PeerConnectionUse } from './peer-link';

/**
 * RTCPeerConnections made ahead of time, so no mesh link negotiates on a connection that is only a
 * few milliseconds old, and the newcomer's offers are ready before the server says who is there.
 *
 * Why settled connections: in Chromium each new RTCPeerConnection asks, asynchronously, whether
 * the page holds camera and microphone permission before it lets its candidate gathering see the
 * network interfaces (blink FilteringNetworkManager). Every allocator session that starts meanwhile
 * (the 10 of the candidate pool at construction, one more at setLocalDescription or an ICE restart)
 * marks a network update as pending; if the first permission answer lands while one is pending,
 * and the update that follows brings the same list again, the connection never signals its
 * networks: it gathers no candidate, ever (Chromium's log shows the list received and no port
 * allocated for that connection). A join's first setLocalDescription came 20-60 ms after
 * construction, just when those answers arrive: about 1 join in 25 lost its connection until the
 * 3 s watchdog rebuilt it. A connection made while the pre-join dialog shows has settled by the
 * time Join is clicked, and sessions it starts later see the networks at once.
 *
 * Why primed offers: the newcomer offers to everyone already in the room (room-session.ts). Made on
 * `joined`, each offer waited for negotiationneeded, for the React render of the room that the same
 * message starts, and for setLocalDescription: 70-190 ms per join on this 2-core machine (bench
 * join-to-first-frame, step medians), and 8 ms once primed. Before the join the reserve keeps
 * `offers` spares (default 2: every link of a room of three) that already hold an offer
 * (`primeOffer`, PRIME_DELAY_MS after construction, so not while the permission answers arrive)
 * and have gathered their candidates; a link adopting one sends that offer at once (or when it is
 * set, if the link came first: with `?name=` the join can take only 150 ms from the page's start,
 * so the delay is kept short). A primed spare that gathers no candidate is replaced
 * (the failure above, caught before any link uses it). Answering a newcomer's offer needs a
 * connection without an offer (Chromium does not reuse the primed transceivers for a remote offer):
 * the reserve also keeps `answers` plain spares (default 1), before the join (the first person in
 * answers the second; without one that answer ran on a brand-new connection, and 4 of 30 bench
 * joins took 4.5-6 s: the guest got a second offer after 3 s, the host's rebuild) and after, made
 * REFILL_DELAY_MS after a take.
 *
 * Made when the room's code loads if the page may already use the camera or microphone (see
 * `forPage`), otherwise once the pre-join has that permission; closed when the page unmounts.
 */

type CreatePeerConnection = (config: RTCConfiguration) => RTCPeerConnection;

export interface ReserveOptions {
  /** Primed spares kept before the join (one per link the newcomer will offer on). */
  offers?: number;
  /** Plain spares kept once in the room (for answering people who join later). */
  answers?: number;
}

/** A page on the SFU has two connections to it: its publisher and its subscriber. */
const SFU_CONNECTIONS = 2;
/** A new connection's permission answers arrive 20-60 ms after construction (see above). */
const PRIME_DELAY_MS = 100;
/** Plain spares are made this far apart, to spread their cost over the page load. */
const STAGGER_MS = 100;
/** A primed spare without a single candidate by then will never have one: replaced. */
const PRIMED_NO_CANDIDATE_MS = 2000;
/**
 * The next spare is made this long after one is taken, so its candidate pool does not compete with
 * the join that is negotiating on the one just taken.
 */
const REFILL_DELAY_MS = 1000;

interface Spare {
  pc: RTCPeerConnection;
  /** Made to be primed with an offer (before the join), or to stay plain. */
  forOffer: boolean;
  /** waiting: PRIME_DELAY_MS not over yet (still a plain settled connection); then priming, primed. */
  state: 'plain' | 'waiting' | 'priming' | 'primed';
  candidates: number;
  timer: ReturnType<typeof setTimeout> | null;
}

export class PeerConnectionReserve {
  private spares: Spare[] = [];
  private iceServers: RTCIceServer[] = [];
  private refill: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;
  /** Set by the first take: the join happened, links from now on mostly answer. */
  private inRoom = false;
  private readonly offers: number;
  private readonly answers: number;
  /** Plain spares wanted beyond `answers`, each until taken (`expectSfu`). */
  private extraPlain = 0;

  constructor(
    private readonly create: CreatePeerConnection = (config) => new RTCPeerConnection(config),
    options: ReserveOptions = {},
  ) {
    this.offers = options.offers ?? 2;
    this.answers = options.answers ?? 1;
    this.fill();
  }

  /**
   * The room page's reserve: the one made when the room's code loaded, if the page already had
   * camera or microphone permission then (see `early` below), otherwise a new one.
   */
  static forPage(): PeerConnectionReserve {
    pageReserveWanted = false;
    const made = pageReserve;
    pageReserve = null;
    if (made && !made.disposed) {
      if (pageReserveExpiry) clearTimeout(pageReserveExpiry);
      return made;
    }
    return new PeerConnectionReserve();
  }

  /** How many spares are waiting, by use (for tests). */
  get sizes(): { offer: number; answer: number } {
    const offer = this.spares.filter((s) => s.forOffer).length;
    return { offer, answer: this.spares.length - offer };
  }

  /**
   * A connection for a new link. For an offer, the most advanced spare meant for one (primed with
   * candidates, primed, priming: the link sends the offer once it is set, or still waiting), else a
   * plain one; for an answer, a plain spare or one whose priming has not started (it is stopped).
   * Otherwise a new connection.
   */
  take = (config: RTCConfiguration, use: PeerConnectionUse = 'answer'): RTCPeerConnection => {
    if (this.disposed) return this.create(config);
    this.iceServers = config.iceServers ?? [];
    this.inRoom = true;
    const live = this.spares.filter((s) => s.pc.connectionState === 'new');
    const of = (state: Spare['state']) => live.filter((s) => s.state === state);
    const pick: Spare | undefined =
      use === 'offer'
        ? (of('primed').find((s) => s.candidates > 0) ??
          of('primed')[0] ??
          of('priming')[0] ??
          of('waiting')[0] ??
          of('plain')[0])
        : (of('plain')[0] ?? of('waiting').find((s) => cancelPriming(s.pc)));
    if (pick && !pick.forOffer && this.extraPlain > 0) this.extraPlain -= 1;
    this.scheduleRefill();
    if (pick) {
      this.remove(pick, false);
      try {
        const current = pick.pc.getConfiguration();
        // New servers make Chromium fire negotiationneeded, also on a spare without transceivers
        // (one taken before its priming started: every Rejoin with STUN on). PeerLink makes no
        // offer for that one (an offer without m-lines would break the connection for good).
        if (JSON.stringify(current.iceServers ?? []) !== JSON.stringify(this.iceServers)) {
          pick.pc.setConfiguration({ ...current, iceServers: this.iceServers });
        }
        return pick.pc;
      } catch {
        pick.pc.close();
      }
    }
    return this.create(config);
  };

  /**
   * The room is (about to be) on the SFU (JoinResponse.mediaMode): its publisher and subscriber
   * connections are plain ones (SfuSession), made at `joined` and at the SFU's first offer. Two
   * more plain spares are made now, while the socket connects, so neither is a connection
   * negotiated in its first milliseconds (see above).
   */
  expectSfu(): void {
    if (this.disposed || this.extraPlain > 0) return;
    this.extraPlain = SFU_CONNECTIONS;
    if (this.refill) clearTimeout(this.refill);
    this.refill = null;
    this.fill();
  }

  dispose(): void {
    this.disposed = true;
    if (this.refill) clearTimeout(this.refill);
    this.refill = null;
    for (const s of [...this.spares]) this.remove(s, true);
  }

  /**
   * Makes the spares the current phase wants: the primed ones together (the newcomer needs all its
   * offers at `joined`, with `?name=` 150 ms after the start; made 100 ms apart, the third person's
   * second offer waited for its priming: joined → offers 100 / 232 ms), then the plain ones one at
   * a time.
   */
  private fill(): void {
    const first = this.wanted();
    if (first === null) return;
    if (first) {
      while (this.wanted() === true) if (!this.make(true)) return;
    } else if (!this.make(false)) return;
    if (this.wanted() !== null) this.schedule(STAGGER_MS);
  }

  /** Which spare to make next (true: one to prime), or null when the reserve is full. */
  private wanted(): boolean | null {
    if (this.disposed) return null;
    const offers = this.spares.filter((s) => s.forOffer).length;
    if (!this.inRoom && offers < this.offers) return true;
    if (this.spares.length - offers < this.answers + this.extraPlain) return false;
    return null;
  }

  private make(forOffer: boolean): boolean {
    let pc: RTCPeerConnection;
    const config = peerConnectionConfig(this.iceServers);
    // Relay only and no TURN server yet (before `joined`): no candidate can come, and none is due.
    const expectsCandidates = config.iceTransportPolicy !== 'relay' || this.iceServers.length > 0;
    try {
      pc = this.create(config);
    } catch {
      return false;
    }
    const spare: Spare = { pc, forOffer, state: forOffer ? 'waiting' : 'plain', candidates: 0, timer: null };
    this.spares.push(spare);
    if (!forOffer) return true;
    pc.onicecandidate = (e) => {
      if (e.candidate?.candidate) spare.candidates += 1;
    };
    const started = setTimeout(() => {
      if (spare.state === 'waiting') spare.state = 'priming';
    }, PRIME_DELAY_MS);
    primeOffer(pc, PRIME_DELAY_MS).then(
      () => {
        if (!this.spares.includes(spare)) return;
        spare.state = 'primed';
        spare.timer = setTimeout(() => {
          spare.timer = null;
          if (this.spares.includes(spare) && spare.candidates === 0 && expectsCandidates) this.replace(spare);
        }, PRIMED_NO_CANDIDATE_MS);
      },
      () => {
        clearTimeout(started);
        this.replace(spare);
      },
    );
    return true;
  }

  private replace(spare: Spare): void {
    if (this.disposed || !this.spares.includes(spare)) return;
    this.remove(spare, true);
    this.fill();
  }

  private remove(spare: Spare, close: boolean): void {
    this.spares = this.spares.filter((s) => s !== spare);
    if (spare.timer) clearTimeout(spare.timer);
    spare.timer = null;
    if (close) {
      cancelPriming(spare.pc);
      spare.pc.close();
    }
  }

  private schedule(delay: number): void {
    if (this.refill) return;
    this.refill = setTimeout(() => {
      this.refill = null;
      this.fill();
    }, delay);
  }

  private scheduleRefill(): void {
    if (this.refill) clearTimeout(this.refill);
    this.refill = null;
    this.schedule(REFILL_DELAY_MS);
  }
}

function queryMediaPermission(): Promise<boolean> {
  const query = (name: string) =>
    navigator.permissions
      ?.query({ name: name as PermissionName })
      .then((s) => s.state === 'granted')
      .catch(() => false) ?? Promise.resolve(false);
  return Promise.all([query('camera'), query('microphone')]).then(([camera, mic]) => camera || mic);
}

/**
 * Asked as soon as the room's code loads, before React renders the page: the answer takes a
 * browser round trip (up to 130 ms on the loaded 2-core machine), and with a `?name=` link the
 * join is under way as the page starts, so the first spare must not wait for it.
 */
let early: Promise<boolean> | null = typeof navigator === 'undefined' ? null : queryMediaPermission();

/**
 * With the permission already granted, the page's reserve is made right then, not when the page
 * has rendered and its controller starts: with `?name=` the join follows the start within 80-170
 * ms, too soon for a spare made at the start to hold its offer, while the render before the start
 * took 100-700 ms (more for a third person, whose machine is decoding two videos). Not claimed
 * within a minute (the page showed an error instead of the room), it is closed.
 */
let pageReserve: PeerConnectionReserve | null = null;
let pageReserveWanted = typeof RTCPeerConnection === 'function';
let pageReserveExpiry: ReturnType<typeof setTimeout> | null = null;
const PAGE_RESERVE_UNCLAIMED_MS = 60_000;
void early?.then((granted) => {
  if (!granted || !pageReserveWanted) return;
  pageReserveWanted = false;
  const reserve = new PeerConnectionReserve();
  pageReserve = reserve;
  pageReserveExpiry = setTimeout(() => {
    if (pageReserve === reserve) pageReserve = null;
    reserve.dispose();
  }, PAGE_RESERVE_UNCLAIMED_MS);
});

/**
 * Whether the page may already use the camera or the microphone (no prompt pending). The first
 * call gets the answer asked when the module loaded; later calls ask again.
 */
export function mediaPermissionGranted(): Promise<boolean> {
  const answer = early ?? queryMediaPermission();
  early = null;
  return answer;
}
