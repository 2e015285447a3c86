/** Bootstraps the example: `<app-root></app-root>` in your page (Angular CLI, or any bundler with JIT). */
import { Component, provideZonelessChangeDetection } from '@angular/core';
import { bootstrapApplication } from '@angular/platform-browser';
import { createClient } from 'svc-search/client';
import { createSearchStore } from 'svc-search/store';
import { ShopSearchComponent } from './shop-search.component.js';

const client = createClient({ appId: 'SVCLOCAL', apiKey: 'local-search-key', hosts: ['http://127.0.0.1:8787'] });

@Component({
  selector: 'app-root',
  imports: [ShopSearchComponent],
  template: `<shop-search [store]="store" (query)="log($event)"></shop-search>`,
})
class AppComponent {
  readonly store = createSearchStore({ client, indexName: 'products' });
  log(query: string): void {
    console.log('query', query);
  }
}

bootstrapApplication(AppComponent, { providers: [provideZonelessChangeDetection()] }).catch((error) =>
  console.error(error),
);
