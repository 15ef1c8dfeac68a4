/** The words and places the synthetic world is made of: topics, captions, names, comments, cities, and the fixed reference clock. */

/** The fixed reference clock: every post, comment and highlight is dated before it. */
export const REFERENCE_TIME = Date.UTC(2025, 5, 1, 12, 0, 0); // 2025-06-01T12:00:00Z
export const HOUR = 3600_000;
export const DAY = 24 * HOUR;

export type TopicKey = 'space' | 'travel' | 'vegan' | 'fitness' | 'photo' | 'coffee' | 'fashion' | 'tech' | 'pets' | 'art' | 'news' | 'life';

export interface Topic {
  key: TopicKey;
  label: string;
  words: string[];
  tags: string[];
  categories: string[];
  captions: string[];
  subjects: string[];
  scenes: string[];
  tone: string;
  audience: string;
}

export const T = (key: TopicKey, label: string, words: string, tags: string, categories: string[], captions: string[], subjects: string, scenes: string, tone: string, audience: string): Topic => ({
  key, label, words: words.split(' '), tags: tags.split(' '), categories, captions, subjects: subjects.split(','), scenes: scenes.split(','), tone, audience,
});

export const TOPICS: Record<TopicKey, Topic> = {
  space: T('space', 'Science & space', 'space astro cosmos orbit star galaxy rocket lunar', 'space astronomy science stars moon nasa universe',
    ['Science, Technology & Engineering', 'Government organization'],
    ['A new look at {thing} from orbit.', 'This week in space: {thing}.', 'Our {thing} team shares an update.', 'Look up tonight: {thing} is visible.'],
    'planet,nebula,astronaut,rocket,moon surface,galaxy', 'outer space,launch pad,mission control,night sky', 'informative and awe-struck', 'science fans and students'),
  travel: T('travel', 'Travel', 'travel wander roam journey atlas trail compass nomad', 'travel wanderlust travelphotography explore adventure natgeo',
    ['Travel company', 'Media/news company'],
    ['Morning light over {place}.', 'Lost in the streets of {place}.', 'Three days in {place}: {thing}.', 'Where should we go after {place}?'],
    'mountains,coastline,old town,market,desert,waterfall', 'landscape,city street,beach,mountain pass', 'curious and storytelling', 'travellers aged 25-44'),
  vegan: T('vegan', 'Vegan food', 'vegan plant green sprout kale tofu lentil herb', 'veganrecipes vegan plantbased veganfood healthyfood recipe',
    ['Food & beverage', 'Chef', 'Blogger'],
    ['{thing}, ready in 20 minutes.', 'Meal prep Sunday: {thing}.', 'Recipe: creamy {thing} with no dairy.', 'Five ingredients, one pan: {thing}.'],
    'bowl of food,vegetables,plated dish,smoothie,salad', 'kitchen counter,dining table,market stall', 'warm and encouraging', 'home cooks going plant-based'),
  fitness: T('fitness', 'Fitness', 'fit lift run gym strong core sweat pace', 'fitness workout gym running health motivation',
    ['Fitness trainer', 'Sportswear store'],
    ['Leg day: {thing}.', 'New PR on {thing} today.', 'Try this {thing} circuit.', 'Rest days matter: {thing}.'],
    'athlete,dumbbells,running shoes,yoga mat', 'gym,running track,park', 'energetic and direct', 'gym-goers and runners'),
  photo: T('photo', 'Photography', 'lens shutter frame focus aperture film light grain', 'photography photooftheday nature landscape portrait naturephotography',
    ['Photographer', 'Artist'],
    ['Shot on film: {thing}.', 'Golden hour, {thing}.', 'From the archive: {place}.', 'Patience pays: {thing}.'],
    'landscape,portrait,wildlife,cityscape', 'forest,lake,street,studio', 'calm and visual', 'photographers and nature lovers'),
  coffee: T('coffee', 'Coffee', 'coffee brew bean roast latte crema espresso mocha', 'coffee coffeetime latteart espresso cafe barista',
    ['Coffee shop', 'Food & beverage'],
    ['Today\'s pour: {thing}.', 'New single origin: {thing}.', 'Latte art practice: {thing}.', 'Your usual? {thing}.'],
    'coffee cup,latte art,coffee beans,barista', 'cafe counter,roastery,table by the window', 'cosy and friendly', 'coffee lovers and remote workers'),
  fashion: T('fashion', 'Fashion', 'style vogue thread chic denim silk trend mode', 'fashion style ootd streetstyle sneakers outfit',
    ['Clothing (brand)', 'Fashion designer'],
    ['New drop: {thing}.', 'Styled three ways: {thing}.', 'Behind the seams: {thing}.', 'Just do it: {thing}.'],
    'model,sneakers,jacket,runway', 'studio,street,runway', 'bold and confident', 'style-conscious shoppers 18-34'),
  tech: T('tech', 'Technology', 'tech code byte pixel chip cloud data dev', 'tech coding programming gadgets developer ai',
    ['Software company', 'Science, Technology & Engineering'],
    ['Shipping {thing} today.', 'Desk setup: {thing}.', 'How we built {thing}.', 'Hot take on {thing}.'],
    'laptop,keyboard,circuit board,phone', 'desk,office,conference stage', 'precise and playful', 'developers and tech enthusiasts'),
  pets: T('pets', 'Pets', 'paws pup kitty whisker bark purr fluffy tail', 'dogsofinstagram catsofinstagram pets puppy cute dog',
    ['Pet supplies', 'Personal blog'],
    ['{thing} and a very good nap.', 'Walk o\'clock: {thing}.', 'Guess who found {thing}.', 'Caught mid-zoomies: {thing}.'],
    'dog,cat,puppy,kitten', 'living room,park,garden', 'playful and wholesome', 'pet owners'),
  art: T('art', 'Art', 'art ink brush canvas sketch paint color studio', 'art artist painting drawing illustration sketchbook',
    ['Artist', 'Art gallery'],
    ['Work in progress: {thing}.', 'Finished: {thing}.', 'Sketchbook page: {thing}.', 'Studio day: {thing}.'],
    'painting,sketch,canvas,brushes', 'studio,gallery wall,desk', 'reflective and expressive', 'art collectors and creatives'),
  news: T('news', 'News', 'news daily report brief wire press', 'news breakingnews worldnews politics journalism',
    ['Media/news company', 'News & media website'],
    ['Today: {thing}.', 'What we know about {thing}.', 'In pictures: {thing}.', 'Explained: {thing}.'],
    'crowd,building,press conference,city', 'street,newsroom,parliament', 'factual and neutral', 'news readers'),
  life: T('life', 'Lifestyle', 'daily life moments sunny home happy', 'lifestyle love instagood happy weekend friends',
    ['Personal blog', 'Digital creator'],
    ['Weekend mood: {thing}.', 'Little things: {thing}.', 'Back home after {place}.', 'Sunday reset: {thing}.'],
    'people,food,sunset,street', 'home,cafe,beach,city', 'casual and personal', 'friends and followers of everyday life'),
};

export const THINGS: Record<TopicKey, string[]> = {
  space: ['the Artemis rocket', 'a spiral galaxy', 'the ISS', 'Saturn\'s rings', 'a solar flare', 'the Webb telescope'],
  travel: ['slow mornings', 'hidden beaches', 'night markets', 'mountain huts', 'old bridges'],
  vegan: ['chickpea curry', 'lentil bolognese', 'tofu scramble', 'cashew mac', 'mango chia pudding', 'black bean tacos', 'miso ramen'],
  fitness: ['deadlifts', 'a 10k tempo run', 'kettlebell swings', 'mobility drills', 'a HIIT session'],
  photo: ['fog in the valley', 'a fox at dawn', 'reflections', 'long exposures', 'street portraits'],
  coffee: ['an Ethiopian natural', 'oat flat whites', 'a cold brew', 'a rosetta', 'cardamom lattes'],
  fashion: ['the spring collection', 'white sneakers', 'oversized blazers', 'denim on denim', 'a linen set'],
  tech: ['a tiny compiler', 'dark mode', 'our new API', 'mechanical keyboards', 'edge functions'],
  pets: ['a squeaky toy', 'the couch', 'a sunbeam', 'the mailman', 'a stick twice his size'],
  art: ['a blue portrait', 'ink botanicals', 'a mural', 'a risograph print', 'still life with lemons'],
  news: ['the election', 'the heatwave', 'the summit', 'new transport plans', 'the budget'],
  life: ['fresh flowers', 'a long brunch', 'a new plant', 'clean sheets', 'farmers market finds'],
};


export const LOCATION_SEED: [string, string, string, string, string, number, number][] = [
  // name, category, address, city, zip, lat, lng
  ['New York, New York', 'City', '', 'New York', '', 40.7143, -74.006],
  ['Paris, France', 'City', '', 'Paris', '', 48.8566, 2.3522],
  ['London, United Kingdom', 'City', '', 'London', '', 51.5072, -0.1276],
  ['Tokyo, Japan', 'City', '', 'Tokyo', '', 35.6762, 139.6503],
  ['Berlin, Germany', 'City', '', 'Berlin', '', 52.52, 13.405],
  ['Lisbon, Portugal', 'City', '', 'Lisbon', '', 38.7223, -9.1393],
  ['Barcelona, Spain', 'City', '', 'Barcelona', '', 41.3874, 2.1686],
  ['Cape Canaveral', 'City', '', 'Cape Canaveral', '32920', 28.3922, -80.6077],
  ['Kennedy Space Center', 'Museum', 'Space Commerce Way', 'Merritt Island', '32953', 28.5729, -80.649],
  ['Yosemite National Park', 'Park', '', 'Yosemite Valley', '95389', 37.8651, -119.5383],
  ['Grand Canyon', 'Park', '', 'Grand Canyon Village', '86023', 36.1069, -112.1129],
  ['Central Park', 'Park', '59th to 110th Street', 'New York', '10022', 40.7829, -73.9654],
  ['Blue Bottle Coffee', 'Cafe', '300 Webster St', 'Oakland', '94607', 37.7986, -122.2682],
  ['The Green Table', 'Vegan Restaurant', '12 Market St', 'Berlin', '10115', 52.5309, 13.3847],
  ['Plant Power Kitchen', 'Vegan Restaurant', '88 Rua Augusta', 'Lisbon', '1100-053', 38.7107, -9.1379],
  ['Borough Market', 'Market', '8 Southwark St', 'London', 'SE1 1TL', 51.5055, -0.0909],
  ['Shibuya Crossing', 'Landmark', '2-2-1 Dogenzaka', 'Tokyo', '150-0043', 35.6595, 139.7005],
  ['Louvre Museum', 'Museum', 'Rue de Rivoli', 'Paris', '75001', 48.8606, 2.3376],
  ['Venice Beach', 'Beach', '1800 Ocean Front Walk', 'Los Angeles', '90291', 33.985, -118.4695],
  ['Bondi Beach', 'Beach', 'Queen Elizabeth Dr', 'Sydney', '2026', -33.8908, 151.2743],
  ['Iron Gym', 'Gym', '401 5th Ave', 'New York', '10016', 40.7505, -73.9831],
  ['Golden Gate Park', 'Park', '', 'San Francisco', '94117', 37.7694, -122.4862],
  ['Reykjavik, Iceland', 'City', '', 'Reykjavik', '', 64.1466, -21.9426],
  ['Marrakech, Morocco', 'City', '', 'Marrakech', '', 31.6295, -7.9811],
  ['Cafe Central', 'Cafe', 'Herrengasse 14', 'Vienna', '1010', 48.2104, 16.3655],
  ['Tate Modern', 'Museum', 'Bankside', 'London', 'SE1 9TG', 51.5076, -0.0994],
  ['Kyoto, Japan', 'City', '', 'Kyoto', '', 35.0116, 135.7681],
  ['Banff National Park', 'Park', '', 'Banff', 'T1L', 51.4968, -115.9281],
  ['Mission Control Houston', 'Government Organization', '2101 E NASA Pkwy', 'Houston', '77058', 29.5593, -95.09],
  ['Brooklyn Bridge', 'Landmark', '', 'New York', '10038', 40.7061, -73.9969],
  ['Amsterdam, Netherlands', 'City', '', 'Amsterdam', '', 52.3676, 4.9041],
  ['Seoul, South Korea', 'City', '', 'Seoul', '', 37.5665, 126.978],
];

export const TOPIC_LOCATIONS: Record<TopicKey, number[]> = {
  space: [7, 8, 28, 0],
  travel: [1, 3, 5, 9, 10, 22, 23, 26, 27, 19, 30, 31],
  vegan: [13, 14, 4, 5, 15, 0],
  fitness: [20, 11, 21, 18],
  photo: [9, 10, 27, 22, 29, 16],
  coffee: [12, 24, 4, 30],
  fashion: [1, 2, 0, 16, 31],
  tech: [21, 0, 4, 31],
  pets: [11, 21, 18, 19],
  art: [17, 25, 2, 1],
  news: [2, 0, 1, 4],
  life: [0, 1, 2, 5, 6, 18, 19],
};

export const COUNTRIES = ['United States', 'United Kingdom', 'Germany', 'France', 'Portugal', 'Spain', 'Japan', 'Brazil', 'India', 'Canada', 'Australia', 'Netherlands', 'Italy', 'Mexico'];
export const FIRST = ['Ana', 'Ben', 'Chloe', 'Dev', 'Elena', 'Finn', 'Grace', 'Hugo', 'Ines', 'Jonas', 'Kira', 'Leo', 'Maya', 'Nina', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sam', 'Tara', 'Umar', 'Vera', 'Wes', 'Yara', 'Zoe', 'Paula', 'Marco', 'Lena', 'Ravi', 'Ida'];
export const LAST = ['Silva', 'Meyer', 'Khan', 'Rossi', 'Novak', 'Garcia', 'Tanaka', 'Dubois', 'Okafor', 'Larsen', 'Costa', 'Weber', 'Ito', 'Moreau', 'Patel'];
export const GENERIC = ['daily', 'studio', 'club', 'life', 'hq', 'co', 'world', 'lab', 'house', 'diary', 'journal', 'notes'];
export const COMMENTS_POS = ['Love this!', 'So good', 'Amazing shot', 'This is beautiful', 'Saving this for later', 'Incredible work', 'Need to try this', 'Wow 😍', 'Goals', 'Thanks for sharing'];
export const COMMENTS_NEU = ['Where is this?', 'What camera do you use?', 'Recipe please?', 'Is this available in Europe?', 'How long did it take?', 'First!', 'Tagging my friend'];
export const COMMENTS_NEG = ['Not a fan of this one', 'Too expensive', 'This looks fake', 'Meh', 'Overrated'];
export type Sentiment = 'positive' | 'neutral' | 'negative';
