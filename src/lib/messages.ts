import { MAX_UPLOAD_MB, PROMPT_MAX, PROMPT_MIN } from './tool/constants';
import { VIDEO_DURATION_SECONDS, VIDEO_RESOLUTIONS } from './tool/video-modes';

/**
 * Every user-facing message of the product in one place, so islands,
 * functions and tests quote the same text.
 */
export const MSG = {
  // Cart and checkout
  cartDuplicate: 'This item is already in your cart',
  cartAdded: 'Added to cart!',
  cartImageAdded: 'Image added to cart',
  cartVideoAdded: 'Video added to cart',
  cartPackageAdded: (name: string) => `Added ${name} to cart!`,
  cartRemoved: 'Item removed from cart',
  cartEmpty: 'Your cart is empty',
  checkoutSuccess: 'Payment successful! You can now download your items.',
  checkoutFailed: (error?: string) => `Checkout failed: ${error || 'Please try again'}`,
  checkoutRedirecting: 'Redirecting you to our secure payment page…',
  checkoutNotPending: 'This checkout has already been paid or has expired. Please refresh the page and try again.',
  paymentsUnavailable: 'Payments are unavailable right now. Please try again later or contact us.',
  tooManyCheckouts: 'Too many orders from your connection in a short time. Please wait a while and try again, or contact us.',
  paymentsLiveOnPreview:
    'Real payments are switched off on this preview of the site. The operator’s /api/health (with HEALTH_SECRET) says what to change: Stripe test keys and a database of its own for this deploy.',
  checkoutOffOnPreview:
    'Checkout is switched off on this preview of the site: it is connected to data that is not marked as test data. The operator’s /api/health (with HEALTH_SECRET) says what to change.',
  paymentProviderError: 'Our payment provider could not be reached. Please try again in a moment.',
  paymentConfirming: 'Payment received. We are confirming it with the payment provider…',
  invalidEmail: 'Please enter a valid email address',
  // The success page says what happened to the order confirmation (`to` is a masked address such as a…@example.com).
  confirmationSent: (to: string) => `A confirmation with your download links was sent to ${to}.`,
  confirmationPending: (to: string) => `A confirmation with your download links is on its way to ${to}.`,
  confirmationSaved: (to: string) =>
    `Your confirmation for ${to} was saved locally (no mail server is configured), so no e-mail was sent: keep this page's download links.`,
  confirmationFailed: (to: string) =>
    `We could not send the confirmation to ${to} yet, and keep trying. Meanwhile keep this page's download links: bookmark the page or copy its address.`,
  confirmationNone: "Keep this page's download links: bookmark the page or copy its address. No e-mail was given, so none is sent.",
  confirmationLimited: (to: string) =>
    `No e-mail was sent to ${to}: we send only a few confirmations per address and day. Keep this page's download links: bookmark the page or copy its address.`,
  paymentStillConfirming: 'Your payment is still being confirmed. This usually takes a few seconds.',
  paymentNotCompleted: 'This payment was not completed and nothing was charged. Your cart is still there if you want to try again.',
  paymentRefunded: 'This order was refunded, so its downloads are no longer available.',
  paymentDisputed: 'This payment is disputed with the bank, so its downloads are not available. Please contact us.',
  itemDuplicateRefunded: 'Already bought in another order: your download is there, and this payment for it was refunded.',
  itemDuplicatePending: 'Already bought in another order: your download is there, and this payment for it is being refunded.',
  purchased: 'Purchased',
  purchasedImageNote: 'Purchased: Download saves the full-resolution image without the watermark.',
  imagePreviewNote: 'The preview and its download carry a watermark; after purchase you download the full-resolution file without it.',
  purchasedVideoNote: `Purchased: Download saves the clean ${VIDEO_DURATION_SECONDS}-second MP4 without the watermark.`,
  videoPreviewNote: `The preview carries a watermark; after purchase you download the clean ${VIDEO_DURATION_SECONDS}-second MP4.`,

  // Image tool
  imageInvalidType: 'Please upload a valid image file (JPEG, PNG, TIFF)',
  videoInvalidType: 'Please upload a valid image file (JPEG, PNG)',
  uploadFirst: 'Please upload an image first',
  selectModel: 'Please select a model',
  imagePromptMin: `Please provide instructions of at least ${PROMPT_MIN} characters`,
  imagePromptMax: `Instructions should be less than ${PROMPT_MAX} characters`,
  uploadFailed: 'Failed to upload image',
  imageProcessing: 'Processing your image with advanced AI colorization...',
  imageSuccess: 'Image processed successfully!',
  imageError: (message?: string) => (message ? `Error processing image: ${message}` : 'Error processing image. Please try again.'),
  imageDownloaded: 'Image downloaded successfully!',
  downloadFailed: 'Download failed. Please try again.',
  imagesLoadError: 'There was an error loading the images. Please try again.',
  // Re-rendering a finished image (colour hints, colour reference photo)
  hintsApplied: 'Colour hints applied',
  referenceApplied: 'Colour reference applied',
  referenceMissing: 'Please choose a colour reference photo',
  referenceRemoved: 'Colour reference removed: automatic colours again',
  referenceNotColour: 'The reference photo has no colour to copy. Please choose a colour photo.',
  referenceColourResult: 'This photo is already in colour: a colour reference is only used for black-and-white and sepia photos.',
  imageNotFound: 'Image not found',
  imageNotReady: 'This image is not ready yet',
  imageFinal: 'This image has already been purchased; it can no longer be changed.',
  // Items belong to the browser that made them (src/lib/tool/ownership.ts)
  notYourItem: 'This item was made in another browser: only its watermarked preview can be shared. Please upload the photo here.',
  notYourCartItem: 'An item in your cart was made in another browser and cannot be bought here. Please remove it from the cart.',
  photoTooLargeFor: (side: number) => `This copy of the photo is larger than this step needs: please send one of at most ${side} pixels on its long side.`,
  // Heal brush: marks on damage the automatic pass left
  healApplied: 'Heal marks applied',
  healUndone: 'Last heal mark removed',
  healCleared: 'Heal marks cleared',
  healMarksList: 'Please send the heal marks as a list of marks, each with a list of points',
  healMarksMax: (max: number) => `Please use at most ${max} heal marks`,
  healPointsMin: 'A heal mark needs at least one point',
  healPointsMax: (max: number) => `A heal mark can have at most ${max} points`,
  healPoint: "Each point of a heal mark needs x and y between 0 and 1 (a share of the picture's width and height)",
  healRadius: (min: number, max: number) => `The heal brush size must be between ${min} and ${max} of the picture's long side`,
  healTooMuch: (percent: number, maxPercent: number) =>
    `These heal marks cover ${percent} % of the picture; the heal brush is for scratches and spots and takes at most ${maxPercent} %. Undo some marks or use a smaller brush.`,

  // Video tool
  videoPromptMin: `Please provide a description of at least ${PROMPT_MIN} characters`,
  videoPromptMax: `Description should be less than ${PROMPT_MAX} characters`,
  videoPromptBlank: 'Please provide a description of how you want the image to animate',
  videoResolution: `Please choose a video resolution: ${VIDEO_RESOLUTIONS.join(' or ')}`,
  videoUnavailable: 'Video generation API is currently unavailable. Please try again later.',
  videoOption: (name: string) => `"${name}" must be on or off`,
  videoSubjects: 'The subjects found on the photo could not be read: choose the photo again',
  videoSourceImage: 'That restored photo is not available to animate. Please restore it again.',
  videoBusy: 'Several videos are being made right now. Please try again in a minute.',
  videoStarting:
    'Starting video generation process with a video generation service. This may take up to 5 minutes...',
  videoGenerating: 'Generating video with your instructions. This may take up to 1 minute to process...',
  videoSuccess: 'Video successfully generated!',
  videoError: 'Error generating video. Please try again.',
  videoGeneratorError: (message?: string) => `Error generating video: ${message || 'Unknown error occurred'}`,
  videoDownloaded: 'Video downloaded successfully!',
  videoNoUrl: 'No video URL received from the API',

  // Video player
  videoRightClick: 'Downloading is not allowed.',
  videoLoadFailed: 'Failed to load video. Please try again.',
  videoLoadFailedInline: 'Failed to load video',
  videoPlayRejected: 'Failed to play video. Please try again.',
  videoTagUnsupported: 'Your browser does not support the video tag.',

  // Marketing islands
  // The lead form: the guide is e-mailed as a link whatever the newsletter box says; the newsletter needs its own confirmation.
  leadConfirmation: 'Thank you! Your free guide is on its way: open the e-mail we just sent you and follow its link.',
  leadNewsletterPending: 'To get the newsletter too, confirm it with the link in our second e-mail.',
  quizCorrect: 'Correct! AI is creating more jobs than it eliminates.',

  // Chat
  chatFailed: 'Failed to get response from AI. Please try again.',
  chatFailedShort: 'Failed to get response from AI',
  chatFileError: 'Error processing file. Please try again.',
  chatDownloaded: 'Conversation downloaded successfully!',

  // Platform: server answers, forms, orders and downloads
  serverError: 'Something went wrong on our side. Please try again.',
  networkError: 'Network error. Please check your connection and try again.',
  invalidJson: 'Invalid JSON body',
  badPathEncoding: 'The address is not correctly encoded.',
  crossSite: 'This request is accepted from this site’s own pages only.',
  unsupportedBody: (accepts: readonly string[]) =>
    `Send this request as ${accepts.map((kind) => BODY_NAMES[kind] ?? kind).join(' or ')}.`,
  renderBusy: 'The restorer is busy with other photos right now. Please try again in a few seconds.',
  payloadTooLarge: (limitBytes: number) => `Request body too large: the limit is ${Math.round(limitBytes / 1024)} KB`,
  uploadTooLarge: `File too large: the limit is ${MAX_UPLOAD_MB} MB`,
  uploadMissing: 'The upload was not found. Please upload the image again.',
  uploadLinkUsed: 'This upload link has already been used or has expired. Please upload the image again.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  contactSent: "Thank you! Your message has been sent: we reply within one business day, and a copy is on its way to your inbox.",
  // Double opt-in: the same answer whether or not the address was on the list, so the form tells nobody who is.
  newsletterCheckInbox: 'Almost done: we sent you an e-mail. Open its link and press Confirm to start your subscription.',
  // The team's inbox (/admin/inbox): the same answer for every address, so the form tells nobody who is on the team.
  signInLinkSent: 'If this address belongs to the team, a sign-in link is on its way. It works once, for 15 minutes.',
  signInRefused: 'This sign-in link has expired or was already used.',
  signInRequired: 'Please sign in to see the inbox.',
  signedOut: 'You are signed out.',
  outboxRetried: 'Queued: it is sent again on the next pass of the outbox.',
  orderNotFound: 'Order not found or link invalid',
  orderLoadFailed: 'Could not load your order',
  downloadForbidden: 'This download link is invalid, or the item has not been purchased',
  fileLinkInvalid: 'This file link is invalid or has expired',
  invalidTransformationId: 'Invalid transformation id',
  transformationNotFound: 'Transformation not found',
  previewNotFound: 'There is no preview for this item yet',

  // Packages: the allowance a paid package gives, spent in the tool (netlify/lib/packages)
  packageLinkInvalid: 'This package link is not valid (it may have been replaced by a newer one). Use “Lost your link?” to have it sent to the e-mail of your order.',
  packageRequired: 'Open your package link first: this needs a package.',
  packageUsedUp: 'No images are left in your package: this photo was not taken. You can still add it to the cart, or contact us for more images.',
  packageExpired: (until: string) => `Your package expired on ${until}; its images can no longer be used. Please contact us at /contact — we will help.`,
  packageExpiredShort: 'Your package has expired. Please contact us at /contact — we will help.',
  packageRevoked: 'This package was refunded, so its remaining images can no longer be used. What you already took stays yours to download.',
  packageNotReady: 'This photo is not finished (or its restoration failed), so it cannot be taken: nothing was used.',
  packageNotImage: 'A package gives images: videos go to the cart.',
  packageTakenElsewhere: 'This photo was already taken by another package.',
  packageAlreadyBought: 'This photo was already bought, so your package was not used for it.',
  packageTaken: (left: number) => `Taken with your package: ${left} image${left === 1 ? '' : 's'} left. Download gives the clean file.`,
  packageAlreadyTaken: 'Already taken with your package: downloading it again is free.',
  packageTakeNote: 'Use 1 image of your package to take this result clean: its heal, hints and every download after stay free.',
  takenImageNote: 'Taken with your package: Download saves the full-resolution image without the watermark. Heal and hints stay free.',
  packageLinkSent: 'If that address bought a package, its link is on its way there. Nothing arrived? Check your spam folder, or contact us.',
  packageLinkRequests: 'Too many requests for package links. Please wait a few minutes and try again.',
  packageOpened: (name: string, left: number) => `${name} opened: ${left} image${left === 1 ? '' : 's'} left.`,
  // Batches: many photos at once (netlify/lib/batches)
  batchTooMany: (left: number) => `Your package has room for ${left} more photo${left === 1 ? '' : 's'} (images left, less the photos already waiting).`,
  batchTooManyWithout: (max: number) => `Without a package, a batch holds at most ${max} photos. A package lets you restore many more at once.`,
  batchNotFound: 'This batch was not found.',
  batchStopped: 'Processing stopped responding three times. Please try again.',
  batchRetryGone: 'This photo can no longer be retried: please add it again.',
  scanNoRoom: (prints: number, room: number) =>
    `This scan holds ${prints} prints, but your batch has room for ${room} more photo${room === 1 ? '' : 's'}, so the scan is kept as one photo.`,
  scanChosen: 'This scan has already been split or kept whole.',
  batchNothingToZip: 'No photo of this batch has been taken yet: nothing to download.',
} as const;

/** How the request guard names the bodies an endpoint takes (netlify/lib/http.ts). */
const BODY_NAMES: Record<string, string> = {
  json: 'application/json',
  multipart: 'multipart/form-data',
  form: 'application/x-www-form-urlencoded',
  upload: 'the photo’s own type (image/jpeg, image/png or image/tiff)',
  none: 'a request without a body',
};

/** Toast timings. */
export const TOAST_DEFAULT_MS = 4000;
export const TOAST_VIDEO_MS = 5000;
export const TOAST_MAX_VISIBLE = 3;
