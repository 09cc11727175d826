/** The hosted page driven over plain HTTP, as a buyer's browser would, without one. */

export interface CardForm {
  card_number: string;
  expiry?: string;
  cvc?: string;
  cardholder_name?: string;
  /** D24: the "Save card for future payments" box, ticked. */
  save_card?: 'yes';
}

export interface PageAnswer {
  status: number;
  /** Where the page sent the buyer (a 303 Location, resolved), if anywhere. */
  location?: string;
  html: string;
}

/**
 * Submits the card form of `checkoutUrl`'s page: a payment that closed the
 * session is answered at once; otherwise the page's own redirect to its
 * result is followed.
 */
export async function payOnPage(checkoutUrl: string, card: CardForm, acceptLanguage = 'en'): Promise<PageAnswer> {
  // The page speaks the buyer's language when the session leaves it open (D18); English unless a test asks otherwise.
  const headers = { 'accept-language': acceptLanguage };
  const form = new URLSearchParams({ expiry: '12/34', cvc: '123', cardholder_name: 'Amina Ben Salah', ...card });
  const posted = await fetch(`${checkoutUrl}/pay`, { method: 'POST', body: form, redirect: 'manual', headers });
  const location = posted.headers.get('location');
  if (posted.status !== 303 || !location) return { status: posted.status, html: await posted.text() };
  await posted.body?.cancel();
  const result = await fetch(new URL(location, checkoutUrl), { redirect: 'manual', headers });
  return { status: result.status, location: new URL(location, checkoutUrl).toString(), html: await result.text() };
}
