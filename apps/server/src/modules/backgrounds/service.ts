import { randomUUID } from 'node:crypto';
import {
  BACKGROUND_MESSAGES,
  BLUR_INTENSITY,
  CUSTOM_BACKGROUND_LIMITS,
  customBackgroundIdFromUrl,
  customBackgroundUrl,
  type BackgroundItem,
  type BackgroundPreferences,
  type BackgroundPreferencesUpdate,
  type BackgroundType,
  type CustomBackground,
  type ParticipantBackground,
  type ParticipantBackgroundInput,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { Readable } from 'node:stream';
import type { BackgroundPreferencesRow, CustomBackgroundRow } from '../../db/schema/index.js';
import { HttpError, badRequest, forbidden, notFound, unauthorized } from '../../http/errors.js';
import type { StorageProvider } from '../../providers/storage/index.js';
import { StorageNotFoundError } from '../../providers/storage/index.js';
import type { MemberState, RoomState } from '../rooms/state.js';
import type { AssetStore, Variant } from './assets.js';
import { CATALOGUE, findBackground, presentBackground } from './catalogue.js';
import { reencodeBackground } from './image.js';
import type { BackgroundsRepository } from './repository.js';

export interface BackgroundsDeps {
  repo: BackgroundsRepository;
  storage: StorageProvider;
  assets: AssetStore;
  /** The one Pro rule (`app.subscriptions.isPro`, subscriptions/service.ts). */
  isPro: (userId: string) => Promise<boolean>;
  log: FastifyBaseLogger;
}

/** A choice of effect, as both the preferences and the meeting call carry it. */
interface Choice {
  backgroundType: BackgroundType;
  backgroundId?: string | null;
  customBackgroundUrl?: string | null;
}

const premiumRefusal = (message: string) => forbidden(message, { requiresSubscription: true });

function presentCustom(row: CustomBackgroundRow): CustomBackground {
  return {
    id: row.id,
    url: customBackgroundUrl(row.id),
    width: row.width,
    height: row.height,
    createdAt: row.createdAt.toISOString(),
  };
}

export function createBackgroundsService(deps: BackgroundsDeps) {
  const { repo, storage, assets, isPro } = deps;
  const catalogue: BackgroundItem[] = CATALOGUE.map(presentBackground);

  /**
   * The server's side of "premium items are usable only with Pro": a premium picture or a custom
   * upload is refused (403, requiresSubscription) to anyone without Pro, guests included. Answers
   * the catalogue id and the upload id the choice names, each checked to exist (and the upload to
   * be the user's own).
   */
  async function checkChoice(
    userId: string | null,
    choice: Choice,
  ): Promise<{ backgroundId: string | null; customId: string | null }> {
    let backgroundId: string | null = null;
    let customId: string | null = null;
    if (choice.backgroundId) {
      const entry = findBackground(choice.backgroundId);
      if (!entry) throw badRequest(BACKGROUND_MESSAGES.unknownBackground);
      if (choice.backgroundType === 'virtual' && entry.isPremium && !(userId && (await isPro(userId)))) {
        throw premiumRefusal(BACKGROUND_MESSAGES.premium);
      }
      backgroundId = entry.id;
    }
    if (choice.customBackgroundUrl) {
      if (!userId || !(await isPro(userId))) throw premiumRefusal(BACKGROUND_MESSAGES.customNeedsPro);
      const id = customBackgroundIdFromUrl(choice.customBackgroundUrl);
      const row = id ? await repo.findCustom(userId, id) : null;
      if (!row) throw notFound(BACKGROUND_MESSAGES.unknownCustom);
      customId = row.id;
    }
    return { backgroundId, customId };
  }

  /**
   * What the user gets now from what they saved: a premium picture or an upload saved while Pro
   * falls back to None once Pro ended (the choice stays saved for when it comes back).
   */
  async function present(
    userId: string,
    row: BackgroundPreferencesRow | null,
  ): Promise<BackgroundPreferences> {
    const saved = {
      backgroundType: (row?.backgroundType ?? 'none') as BackgroundType,
      blurIntensity: row?.blurIntensity ?? BLUR_INTENSITY.default,
      selectedBackgroundId: row?.selectedBackgroundId ?? null,
      customBackgroundUrl: row?.customBackgroundId ? customBackgroundUrl(row.customBackgroundId) : null,
    };
    let usable = true;
    if (saved.backgroundType === 'virtual') {
      const entry = saved.selectedBackgroundId ? findBackground(saved.selectedBackgroundId) : undefined;
      usable = !!entry && (!entry.isPremium || (await isPro(userId)));
    } else if (saved.backgroundType === 'custom') {
      usable = !!saved.customBackgroundUrl && (await isPro(userId));
    }
    return { userId, ...saved, backgroundType: usable ? saved.backgroundType : 'none' };
  }

  return {
    catalogue: (): BackgroundItem[] => catalogue,

    /** A catalogue picture; the full-size picture of a premium item is for Pro users only. */
    async picture(id: string, variant: Variant, userId: string | null): Promise<Buffer> {
      const entry = findBackground(id);
      if (!entry) throw notFound(BACKGROUND_MESSAGES.unknownBackground);
      if (variant === 'image' && entry.isPremium) {
        if (!userId) throw unauthorized('Please log in');
        if (!(await isPro(userId))) throw premiumRefusal(BACKGROUND_MESSAGES.premium);
      }
      return assets.read(entry, variant);
    },

    async preferences(userId: string): Promise<BackgroundPreferences> {
      return present(userId, await repo.preferences(userId));
    },

    async savePreferences(
      userId: string,
      input: BackgroundPreferencesUpdate,
    ): Promise<BackgroundPreferences> {
      if (input.userId !== undefined && input.userId !== userId) {
        throw forbidden('You can only change your own preferences');
      }
      const { backgroundId, customId } = await checkChoice(userId, input);
      const row = await repo.savePreferences(userId, {
        backgroundType: input.backgroundType,
        ...(input.blurIntensity !== undefined ? { blurIntensity: input.blurIntensity } : {}),
        ...(input.backgroundId !== undefined ? { selectedBackgroundId: backgroundId } : {}),
        ...(input.customBackgroundUrl !== undefined ? { customBackgroundId: customId } : {}),
      });
      return present(userId, row);
    },

    /** Stores a Pro user's upload, re-encoded; at most CUSTOM_BACKGROUND_LIMITS.perUser each. */
    async uploadCustom(userId: string, bytes: Buffer): Promise<CustomBackground> {
      if (bytes.length === 0) throw badRequest('The file is empty');
      if ((await repo.countCustom(userId)) >= CUSTOM_BACKGROUND_LIMITS.perUser) {
        throw new HttpError(409, BACKGROUND_MESSAGES.tooMany);
      }
      const image = await reencodeBackground(bytes);
      const id = randomUUID();
      const key = `backgrounds/${userId}/${id}`;
      await storage.write(key, Readable.from([image.data]));
      try {
        return presentCustom(
          await repo.insertCustom({
            id,
            userId,
            storageKey: key,
            width: image.width,
            height: image.height,
            size: image.data.length,
          }),
        );
      } catch (err) {
        await storage.remove(key).catch(() => undefined);
        throw err;
      }
    },

    async listCustom(userId: string): Promise<CustomBackground[]> {
      return (await repo.listCustom(userId)).map(presentCustom);
    },

    /** The bytes of one of the user's uploads (404 for anyone else's, as for an unknown id). */
    async openCustom(userId: string, id: string) {
      const row = /^[0-9a-f-]{36}$/i.test(id) ? await repo.findCustom(userId, id) : null;
      if (!row) throw notFound(BACKGROUND_MESSAGES.unknownCustom);
      try {
        return await storage.read(row.storageKey);
      } catch (err) {
        if (err instanceof StorageNotFoundError) throw notFound(BACKGROUND_MESSAGES.unknownCustom);
        throw err;
      }
    },

    async deleteCustom(userId: string, id: string): Promise<void> {
      const row = /^[0-9a-f-]{36}$/i.test(id) ? await repo.deleteCustom(userId, id) : null;
      if (!row) throw notFound(BACKGROUND_MESSAGES.unknownCustom);
      await storage.remove(row.storageKey).catch((err: unknown) => {
        deps.log.error({ err, key: row.storageKey }, 'could not remove a deleted custom background');
      });
    },

    /**
     * POST …/participants/{participantId}/background: a participant applies an effect to their
     * own video in this meeting. Checked like saved preferences, with the participant's account
     * (a guest has no Pro). Recorded per meeting; the development test room keeps nothing.
     */
    async applyInMeeting(
      room: RoomState,
      member: MemberState,
      participantId: string,
      input: ParticipantBackgroundInput,
    ): Promise<ParticipantBackground> {
      if (participantId !== member.id) throw forbidden(BACKGROUND_MESSAGES.onlyYours);
      const { backgroundId, customId } = await checkChoice(member.userId, input);
      const blurIntensity = input.blurIntensity ?? BLUR_INTENSITY.default;
      if (!room.meeting.ephemeral) {
        await repo.saveMeetingBackground({
          meetingId: room.id,
          participantId: member.id,
          backgroundType: input.backgroundType,
          backgroundId,
          blurIntensity,
          customBackgroundId: customId,
        });
      }
      return {
        participantId: member.id,
        backgroundType: input.backgroundType,
        backgroundId,
        blurIntensity,
        customBackgroundUrl: customId ? customBackgroundUrl(customId) : null,
      };
    },
  };
}
export type BackgroundsService = ReturnType<typeof createBackgroundsService>;
