// /jobs (commands/jobs.ts, jobs-format.ts).
import { defineMessages } from './define.ts';

export const jobs = defineMessages(
  {
    search: '{{what}} in {{place}}',
    noCompany: 'Company not given',
    noSalary: 'Salary not given',
    posted: 'Posted {{age}}',
    // The provider's contract words; another word is shown as it comes.
    terms: { permanent: 'permanent', contract: 'contract', fullTime: 'full time', partTime: 'part time' },
    salary: { from: 'from {{amount}}', upTo: 'up to {{amount}}', estimated: '{{salary}} (est.)' },
    found: {
      text_one: '{{n}} job for {{search}}; page {{page}} of {{last}}',
      text_other: '{{n}} jobs for {{search}}; page {{page}} of {{last}}',
      title_one: '{{n}} job for {{search}}',
      title_other: '{{n}} jobs for {{search}}',
      page: 'Page {{page}} of {{last}}',
      average: 'average salary {{amount}}',
      previous: '◀ Previous',
      next: 'Next ▶',
    },
    none: {
      text: 'No jobs found for {{search}}.',
      title: 'No jobs found',
      description:
        'Nothing matches {{search}}. Try broader search terms, a larger place, or another country.',
    },
    pastEnd: {
      text: 'Page {{page}} is past the last page ({{last}}) of {{search}}.',
      title: 'No more listings',
      description: '{{search}} has {{listings}} {{pages}}.',
      listings_one: '{{n}} listing',
      listings_other: '{{n}} listings',
      pages_one: 'on {{n}} page',
      pages_other: 'on {{n}} pages',
      lastPage: 'Last page',
    },
  },
  {
    de: {
      search: '{{what}} ({{place}})',
      noCompany: 'Firma nicht angegeben',
      noSalary: 'Gehalt nicht angegeben',
      posted: 'Veröffentlicht {{age}}',
      terms: { permanent: 'unbefristet', contract: 'befristet', fullTime: 'Vollzeit', partTime: 'Teilzeit' },
      salary: { from: 'ab {{amount}}', upTo: 'bis {{amount}}', estimated: '{{salary}} (geschätzt)' },
      found: {
        text_one: '{{n}} Stelle für {{search}}; Seite {{page}} von {{last}}',
        text_other: '{{n}} Stellen für {{search}}; Seite {{page}} von {{last}}',
        title_one: '{{n}} Stelle für {{search}}',
        title_other: '{{n}} Stellen für {{search}}',
        page: 'Seite {{page}} von {{last}}',
        average: 'Durchschnittsgehalt {{amount}}',
        previous: '◀ Zurück',
        next: 'Weiter ▶',
      },
      none: {
        text: 'Keine Stellen gefunden für {{search}}.',
        title: 'Keine Stellen gefunden',
        description:
          'Nichts passt zu {{search}}. Versuche allgemeinere Suchbegriffe, einen größeren Ort oder ein anderes Land.',
      },
      pastEnd: {
        text: 'Seite {{page}} liegt hinter der letzten Seite ({{last}}) von {{search}}.',
        title: 'Keine weiteren Stellen',
        description: '{{search}} hat {{listings}} {{pages}}.',
        listings_one: '{{n}} Stelle',
        listings_other: '{{n}} Stellen',
        pages_one: 'auf {{n}} Seite',
        pages_other: 'auf {{n}} Seiten',
        lastPage: 'Letzte Seite',
      },
    },
    fr: {
      search: '{{what}} ({{place}})',
      noCompany: 'Entreprise non indiquée',
      noSalary: 'Salaire non indiqué',
      posted: 'Publiée {{age}}',
      terms: { permanent: 'CDI', contract: 'CDD', fullTime: 'temps plein', partTime: 'temps partiel' },
      salary: {
        from: 'à partir de {{amount}}',
        upTo: "jusqu'à {{amount}}",
        estimated: '{{salary}} (estimation)',
      },
      found: {
        text_one: '{{n}} offre pour {{search}} ; page {{page}} sur {{last}}',
        text_other: '{{n}} offres pour {{search}} ; page {{page}} sur {{last}}',
        title_one: '{{n}} offre pour {{search}}',
        title_other: '{{n}} offres pour {{search}}',
        page: 'Page {{page}} sur {{last}}',
        average: 'salaire moyen {{amount}}',
        previous: '◀ Précédente',
        next: 'Suivante ▶',
      },
      none: {
        text: 'Aucune offre trouvée pour {{search}}.',
        title: 'Aucune offre trouvée',
        description:
          'Rien ne correspond à {{search}}. Essayez des termes plus généraux, un lieu plus large ou un autre pays.',
      },
      pastEnd: {
        text: 'La page {{page}} est au-delà de la dernière page ({{last}}) de {{search}}.',
        title: 'Aucune autre offre',
        description: '{{search}} compte {{listings}} {{pages}}.',
        listings_one: '{{n}} offre',
        listings_other: '{{n}} offres',
        pages_one: 'sur {{n}} page',
        pages_other: 'sur {{n}} pages',
        lastPage: 'Dernière page',
      },
    },
  },
);
