// Slack's Block Kit limits (https://docs.slack.dev/reference/block-kit/blocks),
// counted in UTF-16 code units like every limit in herald.

export const SLACK_LIMITS = Object.freeze({
  blocks: 50,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  contextElements: 10,
  contextText: 3000,
  actionElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  /** An element's action_id (…/block-kit/block-elements/button-element). */
  actionId: 255,
  /**
   * A button's confirm dialog (…/block-kit/composition-objects/confirmation-dialog-object): its
   * title, its text, and the words of its two buttons.
   */
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  imageUrl: 3000,
  /** `msg_blocks_too_long` was seen at about 13.2k characters of block JSON; herald stays under 12k. */
  blocksJson: 12_000,
  /** One uploaded file (files.getUploadURLExternal `length`): Slack takes up to 1 GB, far past Discord's 10 MiB. */
  fileBytes: 1_000_000_000,
  /** A file's alt text (`alt_txt`; longer is refused as alt_txt_too_large). */
  fileAltText: 1000,
  /**
   * Views (https://docs.slack.dev/reference/views/modal-views): a modal's title, submit and close
   * texts; its private_metadata and callback_id; the blocks of a modal or a Home tab.
   */
  viewTitle: 24,
  viewMetadata: 3000,
  viewCallbackId: 255,
  viewBlocks: 100,
  /** An input block's label (https://docs.slack.dev/reference/block-kit/blocks/input-block). */
  inputLabel: 2000,
  /** A plain_text_input's placeholder and its max_length (…/block-elements/plain-text-input-element). */
  inputPlaceholder: 150,
  inputLength: 3000,
});
