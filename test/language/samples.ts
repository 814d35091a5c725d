/*
 * Short texts in other languages, written for these tests (the corpus is almost all English): a few
 * sentences of the kind a document holds, and questions of the kind a person asks. Languages are
 * ISO 639-1 codes.
 */

export interface LanguageSample {
  language: string;
  text: string;
}

/** Paragraphs as a page of a manual, a letter or a report would hold them. */
export const PARAGRAPHS: LanguageSample[] = [
  {
    language: 'de',
    text:
      'Die Wartung der Anlage erfolgt zweimal im Jahr durch einen zugelassenen Fachbetrieb. ' +
      'Vor jeder Prüfung muss die Stromversorgung getrennt und gegen Wiedereinschalten gesichert werden. ' +
      'Die Ergebnisse werden im Prüfbuch eingetragen und vom Betreiber drei Jahre lang aufbewahrt.',
  },
  {
    language: 'fr',
    text:
      'Le contrat prend effet à la date de sa signature et reste valable pendant une durée de deux ans. ' +
      'Chaque partie peut y mettre fin par lettre recommandée avec un préavis de trois mois. ' +
      'Les sommes dues restent exigibles jusqu’à la fin de la période en cours.',
  },
  {
    language: 'es',
    text:
      'El informe anual describe los resultados de la empresa durante el último ejercicio. ' +
      'Las ventas crecieron un ocho por ciento gracias a la apertura de nuevas tiendas en el norte del país, ' +
      'mientras que los gastos de personal se mantuvieron estables.',
  },
  {
    language: 'it',
    text:
      'La richiesta deve essere presentata entro trenta giorni dalla data della fattura. ' +
      'Il cliente riceverà una conferma per posta elettronica e potrà seguire lo stato della pratica ' +
      'accedendo alla propria area riservata sul sito.',
  },
  {
    language: 'nl',
    text:
      'De gemeente heeft besloten om de parkeertarieven in het centrum vanaf volgend jaar te verhogen. ' +
      'Bewoners met een vergunning betalen niets extra, maar bezoekers moeten rekening houden met ' +
      'hogere kosten op zaterdag en zondag.',
  },
  {
    language: 'pt',
    text:
      'O relatório apresenta os principais resultados do projeto e as recomendações da equipa técnica. ' +
      'Os dados foram recolhidos em quatro escolas durante o primeiro semestre e analisados ' +
      'com a ajuda dos professores responsáveis.',
  },
  {
    language: 'ru',
    text:
      'Настоящая инструкция описывает порядок установки и настройки оборудования. ' +
      'Перед началом работы убедитесь, что устройство отключено от сети, ' +
      'и внимательно прочитайте раздел о мерах безопасности.',
  },
  {
    language: 'pl',
    text:
      'Umowa zostaje zawarta na czas nieokreślony i może zostać rozwiązana przez każdą ze stron ' +
      'z zachowaniem miesięcznego okresu wypowiedzenia. Wynagrodzenie jest płatne do dziesiątego dnia ' +
      'każdego miesiąca na rachunek bankowy wskazany przez pracownika.',
  },
  {
    language: 'sv',
    text:
      'Styrelsen föreslår att årsstämman beslutar om en utdelning på två kronor per aktie. ' +
      'Bolagets omsättning ökade under året och resultatet förbättrades jämfört med föregående år, ' +
      'främst tack vare lägre kostnader för råvaror.',
  },
  {
    language: 'ja',
    text:
      '本製品をご使用になる前に、この取扱説明書をよくお読みください。' +
      '電源を入れる前に、すべてのケーブルが正しく接続されていることを確認してください。' +
      '異常を感じた場合は、ただちに使用を中止してください。',
  },
  {
    language: 'zh',
    text:
      '本报告介绍了公司在过去一年中的主要经营成果。' +
      '营业收入比上年增长百分之十二，主要原因是新产品的销售情况良好。' +
      '公司将继续加强研发投入，提高产品质量。',
  },
];

/** Questions as a person types them; each long enough to tell its language with confidence. */
export const QUESTIONS: LanguageSample[] = [
  { language: 'de', text: 'Wie oft muss die Anlage gewartet werden und wer darf die Prüfung durchführen?' },
  { language: 'fr', text: 'Quel est le délai de préavis pour mettre fin au contrat de location ?' },
  { language: 'es', text: '¿Cuánto crecieron las ventas de la empresa durante el último año?' },
  { language: 'it', text: 'Entro quanti giorni devo presentare la richiesta di rimborso della fattura?' },
  { language: 'nl', text: 'Hoeveel moeten bezoekers betalen voor het parkeren in het centrum?' },
  { language: 'en', text: 'How often must the installation be serviced, and who may carry out the test?' },
  { language: 'en', text: 'What were the total net sales reported for the last fiscal year?' },
];

/** Too short to say: a word or two, a number, a name. Detection must not claim a language. */
export const TOO_SHORT: string[] = ['Amcor?', 'EBITDA 2023', 'Wartung', 'page 12', '3M', 'ok'];
