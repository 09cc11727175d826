/** The dashboard's texts of one area, in French and Arabic, keyed by their English words (merged into i18n.ts's catalogues). */
export const FRENCH = {
  // "Forgot password?" and the reset link (D20)
  'Forgot password?': 'Mot de passe oublié ?',
  'Give the email you sign in with. If it has an account here, we mail it a link to choose a new password.':
    'Indiquez l’adresse e-mail avec laquelle vous vous connectez. Si elle a un compte ici, nous lui envoyons un lien pour choisir un nouveau mot de passe.',
  'Send the link': 'Envoyer le lien',
  'Back to sign in': 'Retour à la connexion',
  'Check your mail': 'Consultez vos e-mails',
  'If this address has an account here, a link to choose a new password is on its way. It works once, for one hour.':
    'Si cette adresse a un compte ici, un lien pour choisir un nouveau mot de passe lui a été envoyé. Il ne fonctionne qu’une fois, pendant une heure.',
  'Too many password reset requests from here or for this email. Try again later.':
    'Trop de demandes de réinitialisation depuis cette adresse ou pour cet e-mail. Réessayez plus tard.',
  'Choose a new password': 'Choisir un nouveau mot de passe',
  'Link no longer valid': 'Lien plus valable',
  'This password reset link is not valid: it was used already, or it has lapsed. Ask for a new one.':
    'Ce lien de réinitialisation n’est pas valable : il a déjà servi, ou il a expiré. Demandez-en un nouveau.',
  'Ask for a new link': 'Demander un nouveau lien',
  'Your new password is set. Sign in with it.': 'Votre nouveau mot de passe est enregistré. Connectez-vous avec.',
  // Team: invitations by mail
  'Invitation mailed to {email}. The link in it works once, for 24 hours.': 'Invitation envoyée à {email}. Son lien ne fonctionne qu’une fois, pendant 24 heures.',
  '{email} is invited, but the invitation could not be mailed. Choose "Resend invitation" on their row in a moment.':
    '{email} est invité, mais l’invitation n’a pas pu être envoyée. Choisissez « Renvoyer l’invitation » sur sa ligne dans un instant.',
  'Resend invitation': 'Renvoyer l’invitation',
  'New invitation mailed to {email}; the links sent before no longer work.': 'Nouvelle invitation envoyée à {email} ; les liens envoyés avant ne fonctionnent plus.',
  'The new invitation to {email} could not be mailed. Try "Resend invitation" again in a moment.':
    'La nouvelle invitation à {email} n’a pas pu être envoyée. Réessayez « Renvoyer l’invitation » dans un instant.',
  'This person has set their password already; they can use "Forgot password?" on the sign-in page.':
    'Cette personne a déjà choisi son mot de passe ; elle peut utiliser « Mot de passe oublié ? » sur la page de connexion.',
};

export const ARABIC = {
  'Forgot password?': 'نسيت كلمة المرور؟',
  'Give the email you sign in with. If it has an account here, we mail it a link to choose a new password.':
    'أدخل البريد الإلكتروني الذي تسجّل الدخول به. إن كان له حساب هنا، نرسل إليه رابطًا لاختيار كلمة مرور جديدة.',
  'Send the link': 'إرسال الرابط',
  'Back to sign in': 'العودة إلى تسجيل الدخول',
  'Check your mail': 'تحقّق من بريدك',
  'If this address has an account here, a link to choose a new password is on its way. It works once, for one hour.':
    'إن كان لهذا العنوان حساب هنا، فقد أُرسل إليه رابط لاختيار كلمة مرور جديدة. يعمل الرابط مرة واحدة، لمدة ساعة.',
  'Too many password reset requests from here or for this email. Try again later.':
    'طلبات كثيرة لإعادة تعيين كلمة المرور من هذا العنوان أو لهذا البريد. حاول مرة أخرى لاحقًا.',
  'Choose a new password': 'اختيار كلمة مرور جديدة',
  'Link no longer valid': 'الرابط لم يعد صالحًا',
  'This password reset link is not valid: it was used already, or it has lapsed. Ask for a new one.':
    'رابط إعادة تعيين كلمة المرور هذا غير صالح: استُخدم من قبل، أو انتهت مدته. اطلب رابطًا جديدًا.',
  'Ask for a new link': 'طلب رابط جديد',
  'Your new password is set. Sign in with it.': 'تم تعيين كلمة مرورك الجديدة. سجّل الدخول بها.',
  'Invitation mailed to {email}. The link in it works once, for 24 hours.': 'أُرسلت الدعوة إلى {email}. يعمل الرابط فيها مرة واحدة، لمدة 24 ساعة.',
  '{email} is invited, but the invitation could not be mailed. Choose "Resend invitation" on their row in a moment.':
    'تمت دعوة {email}، لكن تعذّر إرسال الدعوة بالبريد. اختر «إعادة إرسال الدعوة» في سطره بعد قليل.',
  'Resend invitation': 'إعادة إرسال الدعوة',
  'New invitation mailed to {email}; the links sent before no longer work.': 'أُرسلت دعوة جديدة إلى {email}؛ لم تعد الروابط المرسلة من قبل تعمل.',
  'The new invitation to {email} could not be mailed. Try "Resend invitation" again in a moment.':
    'تعذّر إرسال الدعوة الجديدة إلى {email}. أعد المحاولة بـ«إعادة إرسال الدعوة» بعد قليل.',
  'This person has set their password already; they can use "Forgot password?" on the sign-in page.':
    'عيّن هذا الشخص كلمة مروره من قبل؛ يمكنه استخدام «نسيت كلمة المرور؟» في صفحة تسجيل الدخول.',
};
