// Words the retail generator draws from: names, streets, cities and a catalogue of product kinds.

/** Given names. */
export const FIRST_NAMES: readonly string[] = (
  "Aarav Amelia Ava Chen Daiki Elena Emma Fatima Hana Ivan Jamal Lei Liam Lucas Maya Mei Mohamed Noah Olivia " +
  "Omar Priya Raj Sofia Yara Yusuf Zoe"
).split(" ");

/** Surnames. */
export const LAST_NAMES: readonly string[] = (
  "Ahmed Brown Garcia Gonzalez Hernandez Ito Johnson Kim Kovacs Li Lopez Martin Moore Nguyen Patel Rossi " +
  "Santos Silva Smith Taylor Thomas Wilson"
).split(" ");

/** Street names. */
export const STREETS: readonly string[] = (
  "Broadway|Cedar Street|Elm Avenue|Hillcrest Drive|Lakeview Drive|Laurel Lane|Main Street|Maple Drive|" +
  "Oak Street|Park Avenue|Pine Lane|River Road|Sunset Drive|Willow Lane"
).split("|");

/** Cities with a state and the first three digits of their postal codes. */
export const CITIES: readonly { city: string; state: string; zip: string }[] = [
  { city: "New York", state: "NY", zip: "100" },
  { city: "Los Angeles", state: "CA", zip: "900" },
  { city: "Chicago", state: "IL", zip: "606" },
  { city: "Houston", state: "TX", zip: "770" },
  { city: "Phoenix", state: "AZ", zip: "850" },
  { city: "Philadelphia", state: "PA", zip: "191" },
  { city: "San Antonio", state: "TX", zip: "782" },
  { city: "Denver", state: "CO", zip: "802" },
  { city: "Seattle", state: "WA", zip: "981" },
  { city: "Boston", state: "MA", zip: "021" },
];

/** A kind of product: its name, a price range and its option axes. */
export interface ProductKind {
  name: string;
  price: [number, number];
  options: Record<string, readonly string[]>;
}

/** The catalogue the generator makes products from. */
export const PRODUCT_KINDS: readonly ProductKind[] = [
  { name: "T-Shirt", price: [40, 60], options: { color: ["black", "blue", "red"], size: ["S", "M", "L", "XL"] } },
  {
    name: "Water Bottle",
    price: [15, 60],
    options: { capacity: ["500ml", "750ml", "1000ml"], material: ["glass", "steel"] },
  },
  {
    name: "Desk Lamp",
    price: [80, 250],
    options: { color: ["white", "black"], power: ["USB", "AC adapter", "battery"] },
  },
  {
    name: "Office Chair",
    price: [300, 550],
    options: { material: ["fabric", "leather", "mesh"], color: ["black", "gray"] },
  },
  { name: "Running Shoes", price: [80, 200], options: { size: ["8", "9", "10", "11"], color: ["white", "black"] } },
  { name: "Backpack", price: [150, 300], options: { color: ["green", "navy", "black"], size: ["small", "large"] } },
  {
    name: "Headphones",
    price: [100, 400],
    options: { type: ["on-ear", "over-ear"], connectivity: ["wired", "wireless"] },
  },
  {
    name: "Coffee Maker",
    price: [90, 300],
    options: { capacity: ["4 cups", "8 cups", "12 cups"], type: ["drip", "french press"] },
  },
  {
    name: "Smart Watch",
    price: [250, 550],
    options: { color: ["black", "silver", "gold"], band: ["leather", "silicone"] },
  },
  { name: "Tablet", price: [200, 3000], options: { "screen size": ["8-inch", "10-inch"], storage: ["64GB", "128GB"] } },
  { name: "Yoga Mat", price: [20, 120], options: { thickness: ["4mm", "6mm"], color: ["blue", "pink", "purple"] } },
  { name: "Bookshelf", price: [200, 600], options: { material: ["wood", "metal"], height: ["3 ft", "5 ft", "6 ft"] } },
];
