/** The dashboard's texts of one area, in French and Arabic, keyed by their English words (merged into i18n.ts's catalogues). */
export const FRENCH = {
  Settings: 'Paramètres',
  Receipts: 'Reçus',
  'Send receipts to buyers': 'Envoyer les reçus aux acheteurs',
  On: 'Activé',
  Off: 'Désactivé',
  'Turn receipts off': 'Désactiver les reçus',
  'Turn receipts on': 'Activer les reçus',
  'Buyers get a receipt by mail after a payment and after a refund. The switch is per mode.':
    'Les acheteurs reçoivent un reçu par e-mail après un paiement et après un remboursement. Le réglage vaut pour chaque mode.',
  'Choose on or off.': 'Choisissez activé ou désactivé.',
  'Buyers of this mode now get receipts.': 'Les acheteurs de ce mode reçoivent désormais les reçus.',
  'Buyers of this mode no longer get receipts.': 'Les acheteurs de ce mode ne reçoivent plus de reçus.',
  Branding: 'Image de marque',
  'Your logo and accent colour show on the payment page, the payment link page and the receipts, in both modes.':
    "Votre logo et votre couleur d'accent apparaissent sur la page de paiement, la page du lien de paiement et les reçus, dans les deux modes.",
  Logo: 'Logo',
  'No logo: the pages show the business name only.': "Pas de logo : les pages n'affichent que le nom de l'entreprise.",
  'Logo file (PNG or SVG, at most 256 KB)': 'Fichier du logo (PNG ou SVG, 256 Ko au plus)',
  Upload: 'Téléverser',
  'Remove the logo?': 'Supprimer le logo ?',
  'Remove logo': 'Supprimer le logo',
  'An SVG logo may only draw: one with scripts, links, embedded content or styles is refused.':
    'Un logo SVG ne peut que dessiner : un logo contenant des scripts, des liens, du contenu intégré ou des styles est refusé.',
  'Accent colour': "Couleur d'accent",
  'None: the pages keep their own colour.': 'Aucune : les pages gardent leur propre couleur.',
  Colour: 'Couleur',
  'or as #RRGGBB': 'ou en #RRGGBB',
  'Buttons show white text on the accent colour, so it must be dark enough (contrast at least 4.5:1 with white).':
    "Les boutons affichent un texte blanc sur la couleur d'accent : elle doit être assez foncée (contraste d'au moins 4,5:1 avec le blanc).",
  'Accent colour saved: {color}.': "Couleur d'accent enregistrée : {color}.",
  'Logo removed.': 'Logo supprimé.',
  'Logo saved.': 'Logo enregistré.',
  'Choose a PNG or SVG file to upload.': 'Choisissez un fichier PNG ou SVG à téléverser.',
  // The checkout's refusals (its problem's field messages), shown as they come when the page is in English.
  'The logo is larger than 256 KB.': 'Le logo dépasse 256 Ko.',
  'The logo file is empty.': 'Le fichier du logo est vide.',
  'The logo must be a PNG or an SVG image.': 'Le logo doit être une image PNG ou SVG.',
  'The logo is not a PNG image.': "Le logo n'est pas une image PNG.",
  'The logo must be at most 2048 pixels wide and high.': 'Le logo doit mesurer au plus 2048 pixels de large et de haut.',
  'The logo could not be read.': "Le logo n'a pas pu être lu.",
  'The SVG logo must be UTF-8 text.': 'Le logo SVG doit être un texte UTF-8.',
  'The SVG logo is not well-formed XML.': "Le logo SVG n'est pas un XML bien formé.",
  'The SVG logo must be an <svg> image.': 'Le logo SVG doit être une image <svg>.',
  'The SVG logo has too many elements.': "Le logo SVG a trop d'éléments.",
  'The SVG logo nests its elements too deeply.': 'Le logo SVG imbrique ses éléments trop profondément.',
  'The SVG logo repeats its parts too many times (<use>): at most 1000 copies, and none inside itself.':
    "Le logo SVG répète ses parties trop de fois (<use>) : au plus 1000 copies, et aucune dans elle-même.",
  'The SVG logo may hold only drawing elements: no script, foreignObject, image, link, animation or style element.':
    "Le logo SVG ne peut contenir que des éléments de dessin : ni script, ni foreignObject, ni image, ni lien, ni animation, ni élément style.",
  'The SVG logo may hold only drawing and presentation attributes: no event attribute (onload...).':
    "Le logo SVG ne peut contenir que des attributs de dessin et de présentation : aucun attribut d'événement (onload...).",
  'The SVG logo may refer only to its own parts: no link out, javascript: or data: address.':
    'Le logo SVG ne peut renvoyer qu’à ses propres parties : ni lien externe, ni adresse javascript: ou data:.',
  "The SVG logo's style attributes may not load, import or escape anything.": 'Les attributs style du logo SVG ne peuvent rien charger, importer ni échapper.',
  'The SVG logo may not have a DOCTYPE, entities, processing instructions or CDATA sections.':
    "Le logo SVG ne peut avoir ni DOCTYPE, ni entités, ni instructions de traitement, ni sections CDATA.",
  'The accent colour must be #RRGGBB (six hexadecimal digits).': "La couleur d'accent doit être #RRGGBB (six chiffres hexadécimaux).",
  'The accent colour is too light: white text on it and links on white would be hard to read (contrast under 4.5:1).':
    "La couleur d'accent est trop claire : un texte blanc dessus et des liens sur fond blanc seraient difficiles à lire (contraste inférieur à 4,5:1).",
  'Give an accent colour or a logo.': "Indiquez une couleur d'accent ou un logo.",
};

export const ARABIC = {
  Settings: 'الإعدادات',
  Receipts: 'الإيصالات',
  'Send receipts to buyers': 'إرسال الإيصالات إلى المشترين',
  On: 'مفعّل',
  Off: 'معطّل',
  'Turn receipts off': 'إيقاف الإيصالات',
  'Turn receipts on': 'تفعيل الإيصالات',
  'Buyers get a receipt by mail after a payment and after a refund. The switch is per mode.':
    'يتلقى المشترون إيصالًا بالبريد الإلكتروني بعد كل دفع وبعد كل استرداد. يُضبط هذا الخيار لكل وضع على حدة.',
  'Choose on or off.': 'اختر التفعيل أو الإيقاف.',
  'Buyers of this mode now get receipts.': 'أصبح مشترو هذا الوضع يتلقون الإيصالات.',
  'Buyers of this mode no longer get receipts.': 'لم يعد مشترو هذا الوضع يتلقون الإيصالات.',
  Branding: 'الهوية البصرية',
  'Your logo and accent colour show on the payment page, the payment link page and the receipts, in both modes.':
    'يظهر شعارك ولونك المميز في صفحة الدفع وصفحة رابط الدفع والإيصالات، في الوضعين.',
  Logo: 'الشعار',
  'No logo: the pages show the business name only.': 'لا شعار: تعرض الصفحات اسم النشاط التجاري فقط.',
  'Logo file (PNG or SVG, at most 256 KB)': 'ملف الشعار (PNG أو SVG، ‏256 كيلوبايت على الأكثر)',
  Upload: 'رفع',
  'Remove the logo?': 'حذف الشعار؟',
  'Remove logo': 'حذف الشعار',
  'An SVG logo may only draw: one with scripts, links, embedded content or styles is refused.':
    'لا يجوز لشعار SVG إلا أن يرسم: يُرفض الشعار الذي يحتوي على نصوص برمجية أو روابط أو محتوى مضمّن أو أنماط.',
  'Accent colour': 'اللون المميز',
  'None: the pages keep their own colour.': 'لا شيء: تحتفظ الصفحات بلونها.',
  Colour: 'اللون',
  'or as #RRGGBB': 'أو بصيغة ‎#RRGGBB',
  'Buttons show white text on the accent colour, so it must be dark enough (contrast at least 4.5:1 with white).':
    'تعرض الأزرار نصًا أبيض على اللون المميز، لذا يجب أن يكون داكنًا بما يكفي (تباين لا يقل عن 4.5:1 مع الأبيض).',
  'Accent colour saved: {color}.': 'تم حفظ اللون المميز: {color}.',
  'Logo removed.': 'تم حذف الشعار.',
  'Logo saved.': 'تم حفظ الشعار.',
  'Choose a PNG or SVG file to upload.': 'اختر ملف PNG أو SVG لرفعه.',
  'The logo is larger than 256 KB.': 'يتجاوز الشعار 256 كيلوبايت.',
  'The logo file is empty.': 'ملف الشعار فارغ.',
  'The logo must be a PNG or an SVG image.': 'يجب أن يكون الشعار صورة PNG أو SVG.',
  'The logo is not a PNG image.': 'الشعار ليس صورة PNG.',
  'The logo must be at most 2048 pixels wide and high.': 'يجب ألا يتجاوز عرض الشعار وارتفاعه 2048 بكسل.',
  'The logo could not be read.': 'تعذّرت قراءة الشعار.',
  'The SVG logo must be UTF-8 text.': 'يجب أن يكون شعار SVG نصًا بترميز UTF-8.',
  'The SVG logo is not well-formed XML.': 'شعار SVG ليس XML سليم البنية.',
  'The SVG logo must be an <svg> image.': 'يجب أن يكون شعار SVG صورة <svg>.',
  'The SVG logo has too many elements.': 'يحتوي شعار SVG على عناصر كثيرة جدًا.',
  'The SVG logo nests its elements too deeply.': 'يتداخل عناصر شعار SVG بعمق مفرط.',
  'The SVG logo repeats its parts too many times (<use>): at most 1000 copies, and none inside itself.':
    'يكرر شعار SVG أجزاءه مرات كثيرة جدًا (<use>): 1000 نسخة على الأكثر، ولا نسخة داخل نفسها.',
  'The SVG logo may hold only drawing elements: no script, foreignObject, image, link, animation or style element.':
    'لا يجوز أن يحتوي شعار SVG إلا على عناصر رسم: لا script ولا foreignObject ولا صورة ولا رابط ولا حركة ولا عنصر style.',
  'The SVG logo may hold only drawing and presentation attributes: no event attribute (onload...).':
    'لا يجوز أن يحتوي شعار SVG إلا على سمات الرسم والعرض: لا سمات أحداث (onload...).',
  'The SVG logo may refer only to its own parts: no link out, javascript: or data: address.':
    'لا يجوز لشعار SVG أن يشير إلا إلى أجزائه: لا روابط خارجية ولا عناوين javascript:‎ أو data:‎.',
  "The SVG logo's style attributes may not load, import or escape anything.": 'لا يجوز لسمات style في شعار SVG تحميل أو استيراد أو تهريب أي شيء.',
  'The SVG logo may not have a DOCTYPE, entities, processing instructions or CDATA sections.':
    'لا يجوز أن يحتوي شعار SVG على DOCTYPE أو كيانات أو تعليمات معالجة أو أقسام CDATA.',
  'The accent colour must be #RRGGBB (six hexadecimal digits).': 'يجب أن يكون اللون المميز بصيغة ‎#RRGGBB (ستة أرقام ست عشرية).',
  'The accent colour is too light: white text on it and links on white would be hard to read (contrast under 4.5:1).':
    'اللون المميز فاتح جدًا: سيصعب قراءة النص الأبيض عليه والروابط على الأبيض (تباين أقل من 4.5:1).',
  'Give an accent colour or a logo.': 'أدخل لونًا مميزًا أو شعارًا.',
};
