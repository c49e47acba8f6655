/**
 * The platform's service actions (GramJS `MessageAction*`) in the desktop export's vocabulary, with the
 * fields the export gives them, so that one table writes every service line in words
 * (model/service-lines.ts). An action with no counterpart keeps its class name, which still reads as
 * words there.
 */
import { Api } from 'telegram';

type Big = { toJSNumber(): number } | number | bigint;
const asNumber = (value: Big | undefined | null): number | null =>
  value === undefined || value === null
    ? null
    : typeof value === 'number'
      ? value
      : typeof value === 'bigint'
        ? Number(value)
        : value.toJSNumber();

const PHONE_CALL_ENDS: [new (...args: never[]) => object, string][] = [
  [Api.PhoneCallDiscardReasonMissed, 'missed'],
  [Api.PhoneCallDiscardReasonBusy, 'busy'],
  [Api.PhoneCallDiscardReasonHangup, 'hangup'],
  [Api.PhoneCallDiscardReasonDisconnect, 'disconnect'],
];

/**
 * The action's export name and fields. `names` gives a user's display name by id (the senders the library
 * returned with the messages); `pinned` is the id of the message a pin names.
 */
export function exportAction(
  action: Api.TypeMessageAction,
  names: (userId: number) => string | null,
  pinned: number | null,
): { action: string; details: Record<string, unknown> } {
  const members = (ids: Big[] | undefined) =>
    (ids ?? []).map((id) => names(asNumber(id) ?? 0)).filter((name) => name !== null);
  if (action instanceof Api.MessageActionChatCreate)
    return { action: 'create_group', details: { title: action.title, members: members(action.users) } };
  if (action instanceof Api.MessageActionChannelCreate)
    return { action: 'create_channel', details: { title: action.title } };
  if (action instanceof Api.MessageActionChatEditTitle)
    return { action: 'edit_group_title', details: { title: action.title } };
  if (action instanceof Api.MessageActionChatEditPhoto) return { action: 'edit_group_photo', details: {} };
  if (action instanceof Api.MessageActionChatDeletePhoto)
    return { action: 'delete_group_photo', details: {} };
  if (action instanceof Api.MessageActionChatAddUser)
    return { action: 'invite_members', details: { members: members(action.users) } };
  if (action instanceof Api.MessageActionChatDeleteUser)
    return { action: 'remove_members', details: { members: members([action.userId]) } };
  if (action instanceof Api.MessageActionChatJoinedByLink)
    return { action: 'join_group_by_link', details: { inviter: names(asNumber(action.inviterId) ?? 0) } };
  if (action instanceof Api.MessageActionChatJoinedByRequest)
    return { action: 'join_group_by_request', details: {} };
  if (action instanceof Api.MessageActionChatMigrateTo)
    return { action: 'migrate_to_supergroup', details: {} };
  if (action instanceof Api.MessageActionChannelMigrateFrom)
    return { action: 'migrate_from_group', details: { title: action.title } };
  if (action instanceof Api.MessageActionPinMessage)
    return { action: 'pin_message', details: pinned === null ? {} : { message_id: pinned } };
  if (action instanceof Api.MessageActionHistoryClear) return { action: 'clear_history', details: {} };
  if (action instanceof Api.MessageActionGameScore)
    return { action: 'score_in_game', details: { score: action.score } };
  if (action instanceof Api.MessageActionPaymentSent)
    return {
      action: 'send_payment',
      details: { amount: asNumber(action.totalAmount), currency: action.currency },
    };
  if (action instanceof Api.MessageActionPhoneCall) {
    const reason = PHONE_CALL_ENDS.find(([kind]) => action.reason instanceof kind)?.[1];
    return {
      action: 'phone_call',
      details: { duration_seconds: action.duration ?? null, ...(reason ? { discard_reason: reason } : {}) },
    };
  }
  if (action instanceof Api.MessageActionScreenshotTaken) return { action: 'take_screenshot', details: {} };
  if (action instanceof Api.MessageActionCustomAction)
    return { action: 'custom_action', details: { title: action.message } };
  if (action instanceof Api.MessageActionContactSignUp) return { action: 'joined_telegram', details: {} };
  if (action instanceof Api.MessageActionGroupCall)
    return { action: 'group_call', details: { duration: action.duration ?? null } };
  if (action instanceof Api.MessageActionInviteToGroupCall)
    return { action: 'invite_to_group_call', details: { members: members(action.users) } };
  if (action instanceof Api.MessageActionGroupCallScheduled)
    return { action: 'group_call_scheduled', details: { schedule_date: action.scheduleDate } };
  if (action instanceof Api.MessageActionSetMessagesTTL)
    return { action: 'set_messages_ttl', details: { period: action.period } };
  if (action instanceof Api.MessageActionSetChatTheme)
    return { action: 'edit_chat_theme', details: { emoticon: action.emoticon } };
  if (action instanceof Api.MessageActionWebViewDataSent)
    return { action: 'send_webview_data', details: { text: action.text } };
  if (action instanceof Api.MessageActionTopicCreate)
    return { action: 'topic_created', details: { title: action.title } };
  if (action instanceof Api.MessageActionTopicEdit)
    return { action: 'topic_edit', details: action.title ? { title: action.title } : {} };
  if (action instanceof Api.MessageActionGiveawayLaunch) return { action: 'giveaway_launch', details: {} };
  if (action instanceof Api.MessageActionBoostApply) return { action: 'boost_apply', details: {} };
  return { action: action.className.replace(/^MessageAction/, ''), details: {} };
}
