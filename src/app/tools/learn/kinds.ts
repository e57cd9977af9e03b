/** The device kinds the learner takes, and the talker each one's profile names. */
import type { DeviceProfile } from '../../../../drivers/profiles/profile-schema.js';

export type LearnKind = 'card-shoe' | 'dice' | 'ball-reader' | 'shuffler';
export const LEARN_KINDS: readonly LearnKind[] = ['card-shoe', 'dice', 'ball-reader', 'shuffler'];
export const TALKER: Record<LearnKind, DeviceProfile['talker']> = { 'card-shoe': 'SHOE', dice: 'DICE', 'ball-reader': 'BALL', shuffler: 'SHUF' };
