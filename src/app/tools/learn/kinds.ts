/** The device kinds the learner takes (the config's kind names), and the talker each one's profile names. */
import type { DeviceProfile } from '../../../../drivers/profiles/profile-schema.js';

export type LearnKind = 'card-shoe' | 'dice-sensor' | 'ball-reader' | 'shuffler';
export const LEARN_KINDS: readonly LearnKind[] = ['card-shoe', 'dice-sensor', 'ball-reader', 'shuffler'];
export const TALKER: Record<LearnKind, DeviceProfile['talker']> = { 'card-shoe': 'SHOE', 'dice-sensor': 'DICE', 'ball-reader': 'BALL', shuffler: 'SHUF' };
