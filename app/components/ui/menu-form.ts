import type { MouseEvent } from 'react';

/**
 * The click handler for a submit button inside a Headless UI menu item.
 *
 * Choosing a menu item closes the menu synchronously, which removes the item's form from the page
 * before the browser gets to submit it, so nothing happens. This posts a detached copy of the form
 * (hidden inputs and the clicked button's name and value) instead, as a normal page navigation.
 * Without JavaScript the menu never opens; the plain form is what posts.
 */
export function postDetached(event: MouseEvent<HTMLButtonElement>) {
  const button = event.currentTarget;
  const form = button.form;
  if (!form) return;
  event.preventDefault();
  const copy = form.cloneNode(true) as HTMLFormElement;
  if (button.name) {
    const field = document.createElement('input');
    field.type = 'hidden';
    field.name = button.name;
    field.value = button.value;
    copy.appendChild(field);
  }
  copy.hidden = true;
  document.body.appendChild(copy);
  copy.submit();
}
