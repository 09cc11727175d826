/** The console's manual refunds: refunds the acquirer did not confirm, each resolved by an operator. */
import { defineCatalogue } from '@gateway/i18n';

export const OPS_MANUAL_REFUND_TEXTS = defineCatalogue('operations console: manual refunds', {
  en: {
    manual_refunds_note:
      'Refunds the acquirer did not confirm. Find out at the acquirer what happened, then resolve each one: succeeded if the money went back to the buyer, failed if not (the amount becomes refundable again).',
    refund_column: 'Refund',
    acquirer_said: 'Acquirer said',
    no_refund_waiting: 'No refund is waiting.',
    resolve_button: 'Resolve',
    resolve_confirm: 'Resolve this refund? This cannot be undone.',
    resolved_succeeded: 'Succeeded: the money went back',
    resolved_failed: 'Failed: nothing was refunded',
    refund_resolved: 'Refund {refund} is resolved: {status}.',
    resolve_as_refusal: 'Resolve a refund as succeeded or failed.',
  },
  fr: {
    manual_refunds_note:
      "Remboursements que l'acquéreur n'a pas confirmés. Vérifiez auprès de l'acquéreur ce qui s'est passé, puis résolvez chacun : réussi si l'argent est revenu à l'acheteur, échoué sinon (le montant redevient remboursable).",
    refund_column: 'Remboursement',
    acquirer_said: "Réponse de l'acquéreur",
    no_refund_waiting: "Aucun remboursement n'attend.",
    resolve_button: 'Résoudre',
    resolve_confirm: 'Résoudre ce remboursement ? Cette action est définitive.',
    resolved_succeeded: "Réussi : l'argent est revenu à l'acheteur",
    resolved_failed: "Échoué : rien n'a été remboursé",
    refund_resolved: 'Le remboursement {refund} est résolu : {status}.',
    resolve_as_refusal: 'Résolvez un remboursement comme réussi ou échoué.',
  },
  ar: {
    manual_refunds_note:
      'عمليات استرداد لم يؤكدها البنك المحصّل. تحقّق لدى البنك المحصّل مما حدث، ثم قم بتسوية كل عملية: ناجحة إذا أُعيد المبلغ إلى المشتري، وفاشلة إن لم يُعَد (ويصبح المبلغ قابلًا للاسترداد من جديد).',
    refund_column: 'استرداد',
    acquirer_said: 'رد البنك المحصّل',
    no_refund_waiting: 'لا توجد أي عملية استرداد في الانتظار.',
    resolve_button: 'تسوية',
    resolve_confirm: 'هل تريد تسوية هذا الاسترداد؟ لا يمكن التراجع عن ذلك.',
    resolved_succeeded: 'ناجحة: أُعيد المبلغ إلى المشتري',
    resolved_failed: 'فاشلة: لم يُسترد أي مبلغ',
    refund_resolved: 'تمت تسوية الاسترداد {refund}: {status}.',
    resolve_as_refusal: 'قم بتسوية الاسترداد على أنه ناجح أو فاشل.',
  },
});
